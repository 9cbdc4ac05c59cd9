/**
 * The record's schema: what the exchange cannot give back. Losing a row here loses something for
 * good, so the record is backed up before every migration and at every start (see backups.ts).
 * Per-profile tables reference profiles(id) ON DELETE CASCADE, which only a demo profile's
 * removal and the reset (after a kept backup) reach: a profile the user removes is marked
 * removed_at and keeps its rows (ProfilesRepository.archive). The cache's rows of a removed
 * profile are cleared by the repository (a foreign key cannot cross files).
 *
 * Add a migration at the end with the next version; see migrations.ts.
 */
import type { Migration } from './migrations';

export const RECORD_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'profiles, settings, value snapshots, notifications',
    up: `
      CREATE TABLE profiles (
        id             TEXT PRIMARY KEY,
        name           TEXT NOT NULL,
        base_url       TEXT NOT NULL,
        stream_url     TEXT NOT NULL,
        api_key_masked TEXT NOT NULL,
        can_trade      INTEGER NOT NULL CHECK (can_trade IN (0, 1)),
        can_withdraw   INTEGER NOT NULL CHECK (can_withdraw IN (0, 1)),
        is_demo        INTEGER NOT NULL CHECK (is_demo IN (0, 1)),
        created_at     INTEGER NOT NULL
      );

      -- App-wide settings, the remembered parent e-mail and the active profile among them.
      CREATE TABLE app_settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );

      CREATE TABLE profile_settings (
        profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        key        TEXT NOT NULL,
        value      TEXT NOT NULL,
        PRIMARY KEY (profile_id, key)
      );

      -- Taken while the app runs: the exchange keeps no history of what the holdings were worth.
      CREATE TABLE fund_snapshots (
        profile_id  TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        quote_asset TEXT NOT NULL,
        taken_at    INTEGER NOT NULL,
        total_value TEXT NOT NULL,
        assets      TEXT NOT NULL,
        PRIMARY KEY (profile_id, quote_asset, taken_at)
      );

      -- What the app saw happen live (a fill, a cancel, a balance changed elsewhere) and whether
      -- the user has read it: the exchange gives orders and trades back, not these events as seen.
      CREATE TABLE notifications (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        kind       TEXT NOT NULL,
        title      TEXT NOT NULL,
        body       TEXT NOT NULL,
        time       INTEGER NOT NULL,
        read       INTEGER NOT NULL DEFAULT 0 CHECK (read IN (0, 1))
      );
      CREATE INDEX notifications_by_time ON notifications (profile_id, time);
    `,
  },
  {
    version: 2,
    name: 'ledger: labels and cost bases of inferred entries, balance observations',
    up: `
      -- What the user says about an inferred entry (a movement the exchange's records do not
      -- explain): its label and the cost basis of a credit. Keyed by the entry's stable id.
      CREATE TABLE ledger_annotations (
        profile_id    TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        entry_id      TEXT NOT NULL,
        label         TEXT,
        cost_amount   TEXT,
        cost_currency TEXT,
        updated_at    INTEGER NOT NULL,
        PRIMARY KEY (profile_id, entry_id)
      );

      -- Balances the app saw (a full read of an account, or a live balance event naming some
      -- assets): the exchange keeps no balance history, and the ledger reconciles against these.
      CREATE TABLE balance_observations (
        profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        account    TEXT NOT NULL,
        time       INTEGER NOT NULL,
        balances   TEXT NOT NULL,
        complete   INTEGER NOT NULL CHECK (complete IN (0, 1)),
        PRIMARY KEY (profile_id, account, time, complete)
      );
    `,
  },
  {
    version: 3,
    name: 'money journal: transfers and orders written before the first request',
    up: `
      -- A money movement the app started (a transfer of one or two legs, an order), written before
      -- its first request and updated as each step completes, so a process that dies half-way
      -- leaves a trace to reconcile with the exchange at the next start. status: in-progress,
      -- unknown (the exchange could not be asked yet), stopped (a leg missing: the user chooses),
      -- completed, not-made, resolved. notice: settled after a restart, shown until dismissed.
      CREATE TABLE money_journal (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        profile_id  TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        kind        TEXT NOT NULL CHECK (kind IN ('transfer', 'order')),
        asset       TEXT NOT NULL,
        amount      TEXT NOT NULL,
        from_email  TEXT,
        to_email    TEXT,
        via_email   TEXT,
        order_json  TEXT,
        status      TEXT NOT NULL,
        funds_at    TEXT,
        facts       TEXT,
        notice      INTEGER NOT NULL DEFAULT 0 CHECK (notice IN (0, 1)),
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      );
      CREATE INDEX money_journal_by_status ON money_journal (profile_id, status);

      -- One request of an entry: a transfer leg, or an order placement. status: pending (not
      -- sent), sending (sent, no answer recorded), done, not-made. window_from: the exchange's
      -- time (as estimated) when it was marked sending; ref: the exchange's txnId or orderId.
      CREATE TABLE money_journal_steps (
        entry_id        INTEGER NOT NULL REFERENCES money_journal(id) ON DELETE CASCADE,
        seq             INTEGER NOT NULL,
        from_email      TEXT,
        to_email        TEXT,
        client_order_id TEXT,
        status          TEXT NOT NULL CHECK (status IN ('pending', 'sending', 'done', 'not-made')),
        window_from     INTEGER,
        ref             TEXT,
        message         TEXT,
        updated_at      INTEGER NOT NULL,
        PRIMARY KEY (entry_id, seq)
      );
    `,
  },
  {
    version: 4,
    name: 'alerts: price and balance alerts with their evaluation state',
    up: `
      -- What the user asked to be told about, and what the app last saw of it, so that a restart
      -- neither misses a crossing nor fires one twice. kind: price (symbol, direction above or
      -- below, threshold a price), price-move (symbol, direction up, down or either, threshold a
      -- percentage, window_ms), balance (asset, above or below, threshold an amount of the free
      -- balance), portfolio (asset is the quote asset, above or below, threshold a value),
      -- withdrawal (asset, or NULL for any). Thresholds are decimal text. last_side: the side of
      -- the line last seen (above, below; beyond or within for a move). state: JSON the kind
      -- needs between runs (the withdrawals not yet final and their statuses).
      CREATE TABLE alerts (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        profile_id    TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        kind          TEXT NOT NULL
                      CHECK (kind IN ('price', 'price-move', 'balance', 'portfolio', 'withdrawal')),
        symbol        TEXT,
        asset         TEXT,
        direction     TEXT CHECK (direction IN ('above', 'below', 'up', 'down', 'either')),
        threshold     TEXT,
        window_ms     INTEGER,
        repeat        INTEGER NOT NULL DEFAULT 0 CHECK (repeat IN (0, 1)),
        cooldown_ms   INTEGER NOT NULL DEFAULT 0,
        paused        INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
        last_side     TEXT,
        last_value    TEXT,
        last_seen_at  INTEGER,
        last_fired_at INTEGER,
        fired_count   INTEGER NOT NULL DEFAULT 0,
        state         TEXT,
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL
      );
      CREATE INDEX alerts_by_profile ON alerts (profile_id, kind);
    `,
  },
  {
    version: 5,
    name: 'profiles removed softly: removed_at keeps a removed profile and its rows restorable',
    up: `
      -- A removed profile keeps its row and every row of its own in the record (labels, cost
      -- bases, alerts, observations, journal entries) so that it can be restored; only a profile
      -- with removed_at NULL is listed and used. Its cache rows are cleared on removal.
      ALTER TABLE profiles ADD COLUMN removed_at INTEGER;
    `,
  },
  {
    version: 6,
    name: 'ledger annotations keep the facts of the entry the user wrote them about',
    up: `
      -- The inferred entry as it stood when the user last wrote or confirmed its label and cost
      -- (account, asset, signed amount, interval (from, to], placed at time): new records may move,
      -- split or explain the entry away, and the app shows these beside what the entry is now
      -- instead of dropping what the user wrote. NULL in rows written before.
      ALTER TABLE ledger_annotations ADD COLUMN entry_account TEXT;
      ALTER TABLE ledger_annotations ADD COLUMN entry_asset TEXT;
      ALTER TABLE ledger_annotations ADD COLUMN entry_amount TEXT;
      ALTER TABLE ledger_annotations ADD COLUMN entry_from INTEGER;
      ALTER TABLE ledger_annotations ADD COLUMN entry_to INTEGER;
      ALTER TABLE ledger_annotations ADD COLUMN entry_time INTEGER;
    `,
  },
  {
    version: 7,
    name: 'sub-accounts linked to their own API key',
    up: `
      -- A sub-account the user linked to its own key (checked with the exchange to be that
      -- sub-account's): the key pair itself is in the OS keychain only, never here; the masked
      -- key is what the screen shows. The e-mail is kept in lower case.
      CREATE TABLE sub_account_links (
        profile_id     TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        email          TEXT NOT NULL,
        api_key_masked TEXT NOT NULL,
        linked_at      INTEGER NOT NULL,
        PRIMARY KEY (profile_id, email)
      ) WITHOUT ROWID;
    `,
  },
];
