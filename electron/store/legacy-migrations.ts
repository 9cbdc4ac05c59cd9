/**
 * FROZEN: do not edit, do not refactor, do not share code with the other migrations.
 *
 * The schema of the single file (spotfolio.sqlite) that versions before the record/cache split
 * kept, frozen as it was released (versions 1 to 4). It is only used to read such a file once:
 * openStore brings a copy of it to version 4 with these steps, then moves its tables into the
 * record and the cache (see legacy.ts). Never add to this list: new tables go to
 * record-migrations.ts or cache-migrations.ts.
 *
 * Many statements here repeat, line for line, the first steps of record-migrations.ts and
 * cache-migrations.ts: those tables were carried over unchanged when the file was split. The
 * repetition is on purpose. An old file must be read by exactly the schema it was written with;
 * were these steps built from the live migrations, a later change to a record or cache table
 * would silently change what an old file is upgraded through, and the copy in legacy.ts would
 * meet columns it does not expect.
 */
import type { Migration } from './migrations';

export const LEGACY_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'profiles, settings, funds, snapshots, prices',
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

      CREATE TABLE funds (
        profile_id   TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        asset        TEXT NOT NULL,
        free         TEXT NOT NULL,
        locked       TEXT NOT NULL,
        reserved_fee TEXT,
        updated_at   INTEGER NOT NULL,
        PRIMARY KEY (profile_id, asset)
      );

      CREATE TABLE fund_snapshots (
        profile_id  TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        quote_asset TEXT NOT NULL,
        taken_at    INTEGER NOT NULL,
        total_value TEXT NOT NULL,
        assets      TEXT NOT NULL,
        PRIMARY KEY (profile_id, quote_asset, taken_at)
      );

      -- Prices are per profile: a demo profile's sandbox and a real exchange quote different worlds.
      CREATE TABLE prices (
        profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        symbol     TEXT NOT NULL,
        last       TEXT NOT NULL,
        open       TEXT NOT NULL,
        high       TEXT NOT NULL,
        low        TEXT NOT NULL,
        bid        TEXT NOT NULL,
        ask        TEXT NOT NULL,
        volume     TEXT NOT NULL,
        at         INTEGER NOT NULL,
        PRIMARY KEY (profile_id, symbol)
      );
    `,
  },
  {
    version: 2,
    name: 'withdraws, deposit addresses, coins, sub-accounts, sub-account transfers',
    up: `
      CREATE TABLE withdraws (
        profile_id        TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        id                TEXT NOT NULL,
        coin              TEXT NOT NULL,
        network           TEXT,
        address           TEXT,
        amount            TEXT NOT NULL,
        -- Fixed-width text that sorts like the amount (see amountSortKey): exact, no REAL.
        amount_key        TEXT NOT NULL,
        transaction_fee   TEXT NOT NULL,
        status            INTEGER NOT NULL,
        partner_transfer  INTEGER NOT NULL CHECK (partner_transfer IN (0, 1)),
        withdraw_order_id TEXT,
        tx_id             TEXT,
        failure_info      TEXT,
        created_at        INTEGER NOT NULL,
        last_updated      INTEGER NOT NULL,
        PRIMARY KEY (profile_id, id)
      );
      -- Each index ends with a sort column, so a page is read in order straight from the index and
      -- its count is answered from the index alone. The type filter (partner vs on-chain) and a
      -- coin filter under amount sort ride on these rather than costing every insert an index more.
      CREATE INDEX withdraws_by_time ON withdraws (profile_id, created_at);
      CREATE INDEX withdraws_by_coin_time ON withdraws (profile_id, coin, created_at);
      CREATE INDEX withdraws_by_coin_status_time ON withdraws (profile_id, coin, status, created_at);
      CREATE INDEX withdraws_by_status_time ON withdraws (profile_id, status, created_at);
      CREATE INDEX withdraws_by_amount ON withdraws (profile_id, amount_key);

      CREATE TABLE deposit_addresses (
        profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        coin       TEXT NOT NULL,
        network    TEXT NOT NULL,
        address    TEXT NOT NULL,
        tag        TEXT NOT NULL,
        url        TEXT NOT NULL,
        fetched_at INTEGER NOT NULL,
        PRIMARY KEY (profile_id, coin, network)
      );

      CREATE TABLE coins (
        profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        coin       TEXT NOT NULL,
        json       TEXT NOT NULL,
        fetched_at INTEGER NOT NULL,
        PRIMARY KEY (profile_id, coin)
      );

      CREATE TABLE sub_accounts (
        profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        email      TEXT NOT NULL,
        status     TEXT NOT NULL,
        portfolio  TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        fetched_at INTEGER NOT NULL,
        PRIMARY KEY (profile_id, email)
      );

      CREATE TABLE sub_account_balances (
        profile_id TEXT NOT NULL,
        email      TEXT NOT NULL,
        asset      TEXT NOT NULL,
        balance    TEXT NOT NULL,
        PRIMARY KEY (profile_id, email, asset),
        FOREIGN KEY (profile_id, email) REFERENCES sub_accounts(profile_id, email) ON DELETE CASCADE
      );

      CREATE TABLE sub_transfers (
        profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        txn_id     INTEGER NOT NULL,
        asset      TEXT NOT NULL,
        from_email TEXT NOT NULL,
        to_email   TEXT NOT NULL,
        qty        TEXT NOT NULL,
        status     TEXT NOT NULL,
        time       INTEGER NOT NULL,
        PRIMARY KEY (profile_id, txn_id)
      );
      CREATE INDEX sub_transfers_by_time ON sub_transfers (profile_id, time, txn_id);
      CREATE INDEX sub_transfers_by_asset_time ON sub_transfers (profile_id, asset, time, txn_id);
    `,
  },
  {
    version: 3,
    name: 'orders, own trades, notifications, sync state',
    up: `
      CREATE TABLE orders (
        profile_id      TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        id              INTEGER NOT NULL,
        client_order_id TEXT NOT NULL,
        symbol          TEXT NOT NULL,
        side            TEXT NOT NULL CHECK (side IN ('buy', 'sell')),
        type            TEXT NOT NULL CHECK (type IN ('limit', 'stop_limit')),
        status          TEXT NOT NULL CHECK (status IN ('idle', 'wait', 'done', 'cancel')),
        price           TEXT NOT NULL,
        stop_price      TEXT,
        orig_qty        TEXT NOT NULL,
        executed_qty    TEXT NOT NULL,
        created_time    INTEGER NOT NULL,
        updated_time    INTEGER NOT NULL,
        PRIMARY KEY (profile_id, id)
      );
      CREATE INDEX orders_by_time ON orders (profile_id, created_time, id);
      CREATE INDEX orders_by_symbol_time ON orders (profile_id, symbol, created_time, id);
      CREATE INDEX orders_by_status ON orders (profile_id, status, created_time, id);
      CREATE INDEX orders_by_client_id ON orders (profile_id, client_order_id);

      -- A self-trade gives the same trade id to both orders of the account, hence order_id in the key.
      CREATE TABLE own_trades (
        profile_id     TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        id             INTEGER NOT NULL,
        symbol         TEXT NOT NULL,
        order_id       INTEGER NOT NULL,
        side           TEXT NOT NULL CHECK (side IN ('buy', 'sell')),
        price          TEXT NOT NULL,
        qty            TEXT NOT NULL,
        quote_qty      TEXT NOT NULL,
        fee            TEXT NOT NULL,
        fee_currency   TEXT NOT NULL,
        is_buyer_maker INTEGER NOT NULL CHECK (is_buyer_maker IN (0, 1)),
        time           INTEGER NOT NULL,
        PRIMARY KEY (profile_id, id, order_id)
      );
      CREATE INDEX own_trades_by_time ON own_trades (profile_id, time, id);
      CREATE INDEX own_trades_by_symbol_time ON own_trades (profile_id, symbol, time, id);
      CREATE INDEX own_trades_by_symbol_side_time ON own_trades (profile_id, symbol, side, time, id);
      CREATE INDEX own_trades_by_order ON own_trades (profile_id, order_id);

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

      CREATE TABLE sync_state (
        profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        kind       TEXT NOT NULL,
        cursor     TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (profile_id, kind)
      );
    `,
  },
  {
    version: 4,
    name: 'closes of finished candles',
    up: `
      -- "Current holdings at past prices" needs candles, and klines are limited to one call a
      -- second: a finished candle never changes, so each is fetched once and kept.
      CREATE TABLE kline_closes (
        profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        symbol     TEXT NOT NULL,
        interval   TEXT NOT NULL,
        open_time  INTEGER NOT NULL,
        close      TEXT NOT NULL,
        PRIMARY KEY (profile_id, symbol, interval, open_time)
      ) WITHOUT ROWID;
    `,
  },
];

/** The last version a single-file install could have. */
export const LEGACY_LATEST_VERSION = 4;
