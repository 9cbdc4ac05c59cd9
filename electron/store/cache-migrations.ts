/**
 * The cache's schema: everything the exchange can give back (balances, prices, histories, orders
 * and trades, wallet facts) and the sync cursors that say how much of it is here. A cursor lives
 * in the same file as the rows it describes, so both commit together and a rebuilt cache starts
 * with neither. A damaged cache is moved aside and made anew; sync fills it again.
 *
 * Rows are keyed by profile_id but carry no foreign key to profiles, which live in the record (a
 * foreign key cannot cross files): ProfilesRepository.delete removes them, and openStore drops the
 * rows of a profile the record does not know (after the record was restored from a backup).
 *
 * Add a migration at the end with the next version; see migrations.ts.
 */
import type { Migration } from './migrations';

export const CACHE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'funds, prices, candle closes, wallet, sub-accounts, orders, trades, sync state',
    up: `
      CREATE TABLE funds (
        profile_id   TEXT NOT NULL,
        asset        TEXT NOT NULL,
        free         TEXT NOT NULL,
        locked       TEXT NOT NULL,
        reserved_fee TEXT,
        updated_at   INTEGER NOT NULL,
        PRIMARY KEY (profile_id, asset)
      );

      -- Prices are per profile: a demo profile's sandbox and a real exchange quote different worlds.
      CREATE TABLE prices (
        profile_id TEXT NOT NULL,
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

      CREATE TABLE withdraws (
        profile_id        TEXT NOT NULL,
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
        profile_id TEXT NOT NULL,
        coin       TEXT NOT NULL,
        network    TEXT NOT NULL,
        address    TEXT NOT NULL,
        tag        TEXT NOT NULL,
        url        TEXT NOT NULL,
        fetched_at INTEGER NOT NULL,
        PRIMARY KEY (profile_id, coin, network)
      );

      CREATE TABLE coins (
        profile_id TEXT NOT NULL,
        coin       TEXT NOT NULL,
        json       TEXT NOT NULL,
        fetched_at INTEGER NOT NULL,
        PRIMARY KEY (profile_id, coin)
      );

      CREATE TABLE sub_accounts (
        profile_id TEXT NOT NULL,
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
        profile_id TEXT NOT NULL,
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

      CREATE TABLE orders (
        profile_id      TEXT NOT NULL,
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
        profile_id     TEXT NOT NULL,
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

      CREATE TABLE sync_state (
        profile_id TEXT NOT NULL,
        kind       TEXT NOT NULL,
        cursor     TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (profile_id, kind)
      );

      -- "Current holdings at past prices" needs candles, and klines are limited to one call a
      -- second: a finished candle never changes, so each is fetched once and kept.
      CREATE TABLE kline_closes (
        profile_id TEXT NOT NULL,
        symbol     TEXT NOT NULL,
        interval   TEXT NOT NULL,
        open_time  INTEGER NOT NULL,
        close      TEXT NOT NULL,
        PRIMARY KEY (profile_id, symbol, interval, open_time)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: 'exchange answers: kept apart from the sync cursors, versioned per kind',
    // Whole answers (account info, the markets' assets, symbols, candles, a book) were kept in
    // sync_state's cursor column. They move to a table of their own, marked with the version of
    // the shape they were written in; a reader trusts a row only when its version and shape are
    // the ones it knows. The two answers whose shape stays are carried over, as version 1; the
    // market screens' copies were views of another shape and are fetched again.
    up: `
      CREATE TABLE exchange_answers (
        profile_id TEXT NOT NULL,
        kind       TEXT NOT NULL,
        key        TEXT NOT NULL,
        version    INTEGER NOT NULL,
        answer     TEXT NOT NULL,
        fetched_at INTEGER NOT NULL,
        PRIMARY KEY (profile_id, kind, key)
      ) WITHOUT ROWID;

      INSERT INTO exchange_answers (profile_id, kind, key, version, answer, fetched_at)
        SELECT profile_id, 'account', '', 1, cursor, updated_at FROM sync_state
          WHERE kind = 'account.info';
      INSERT INTO exchange_answers (profile_id, kind, key, version, answer, fetched_at)
        SELECT profile_id, 'symbol-assets', '', 1, cursor, updated_at FROM sync_state
          WHERE kind = 'symbols.assets';
      DELETE FROM sync_state
        WHERE kind IN ('account.info', 'symbols.assets') OR kind LIKE 'market.%';
    `,
  },
  {
    version: 3,
    name: 'orders the exchange no longer knows',
    // An order the store holds open that the exchange answers "does not exist" for, and that its
    // order history does not list either (the exchange was reset, the account recreated), is
    // marked gone: kept in the history, never counted open, and never asked about again.
    up: `
      ALTER TABLE orders ADD COLUMN gone_at INTEGER;
    `,
  },
  {
    version: 4,
    name: 'own trades indexed in ledger order',
    // The ledger reads own trades a page at a time after a (time, id, order id) cursor: with the
    // whole key in one index the page is a range of it, where the index on (time, id) made SQLite
    // visit every trade of the profile and sort them for each page.
    up: `
      CREATE INDEX own_trades_in_ledger_order ON own_trades (profile_id, time, id, order_id);
      DROP INDEX IF EXISTS own_trades_by_time;
    `,
  },
  {
    version: 5,
    name: "linked sub-accounts' own trades",
    // A sub-account linked to its own API key has its trades read with that key (myTrades and
    // its private stream): the parent's key cannot read them. Kept apart from own_trades, whose
    // rows are the main account's (the Orders screen, the alerts' past trades), keyed by the
    // sub-account's e-mail (lower case); the ledger reads both in one order.
    up: `
      CREATE TABLE sub_account_trades (
        profile_id     TEXT NOT NULL,
        account        TEXT NOT NULL,
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
        PRIMARY KEY (profile_id, account, id, order_id)
      ) WITHOUT ROWID;
      CREATE INDEX sub_account_trades_in_ledger_order
        ON sub_account_trades (profile_id, time, id, order_id);
      CREATE INDEX sub_account_trades_by_symbol ON sub_account_trades (profile_id, account, symbol);
    `,
  },
  {
    version: 6,
    name: "linked sub-accounts' own orders",
    // A sub-account linked to its own API key has its orders read with that key (openOrders,
    // allOrders, its private stream's order updates), kept beside the main account's with the
    // account they are of ('main' or the sub-account's e-mail, lower case) in the key: an order id
    // is the exchange's, and nothing in the interface says two accounts never share one. SQLite
    // changes a primary key only by building the table again.
    up: `
      CREATE TABLE orders_of_accounts (
        profile_id      TEXT NOT NULL,
        account         TEXT NOT NULL,
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
        gone_at         INTEGER,
        PRIMARY KEY (profile_id, account, id)
      );
      INSERT INTO orders_of_accounts (profile_id, account, id, client_order_id, symbol, side, type,
          status, price, stop_price, orig_qty, executed_qty, created_time, updated_time, gone_at)
        SELECT profile_id, 'main', id, client_order_id, symbol, side, type, status, price,
          stop_price, orig_qty, executed_qty, created_time, updated_time, gone_at FROM orders;
      DROP TABLE orders;
      ALTER TABLE orders_of_accounts RENAME TO orders;
      CREATE INDEX orders_by_time ON orders (profile_id, created_time, id);
      CREATE INDEX orders_by_account_time ON orders (profile_id, account, created_time, id);
      CREATE INDEX orders_by_symbol_time ON orders (profile_id, symbol, created_time, id);
      CREATE INDEX orders_by_status ON orders (profile_id, status, created_time, id);
      CREATE INDEX orders_by_client_id ON orders (profile_id, account, client_order_id);
    `,
  },
  {
    version: 7,
    name: 'own trades counted',
    // The ledger's marks compare a profile's count of own trades (both tables) at every update:
    // counted, it was a walk of an index of every trade, twice a build (4 ms at 100,000 trades).
    // Kept by the tables' own triggers, it is one row read. An insert the key ignores (ON
    // CONFLICT DO NOTHING) inserts nothing and fires nothing; a profile's cache cleared deletes
    // its count with its rows, whichever goes first.
    up: `
      CREATE TABLE trade_counts (
        profile_id TEXT PRIMARY KEY,
        trades     INTEGER NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO trade_counts (profile_id, trades)
        SELECT profile_id, count(*) FROM (
          SELECT profile_id FROM own_trades UNION ALL SELECT profile_id FROM sub_account_trades)
        GROUP BY profile_id;
      CREATE TRIGGER own_trades_counted AFTER INSERT ON own_trades BEGIN
        INSERT INTO trade_counts (profile_id, trades) VALUES (NEW.profile_id, 1)
          ON CONFLICT (profile_id) DO UPDATE SET trades = trades + 1;
      END;
      CREATE TRIGGER own_trades_uncounted AFTER DELETE ON own_trades BEGIN
        UPDATE trade_counts SET trades = trades - 1 WHERE profile_id = OLD.profile_id;
      END;
      CREATE TRIGGER sub_account_trades_counted AFTER INSERT ON sub_account_trades BEGIN
        INSERT INTO trade_counts (profile_id, trades) VALUES (NEW.profile_id, 1)
          ON CONFLICT (profile_id) DO UPDATE SET trades = trades + 1;
      END;
      CREATE TRIGGER sub_account_trades_uncounted AFTER DELETE ON sub_account_trades BEGIN
        UPDATE trade_counts SET trades = trades - 1 WHERE profile_id = OLD.profile_id;
      END;
    `,
  },
];
