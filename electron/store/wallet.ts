/** Wallet cache: deposit addresses (stable per coin and network) and the coin/network list. */
import type Database from 'better-sqlite3';
import type { CoinInput, CoinRow, DepositAddressInput, DepositAddressRow } from './types';
import { integerMs, StoreInputError } from './util';

const ADDRESS_COLUMNS = 'coin, network, address, tag, url, fetched_at AS fetchedAt';

export class WalletRepository {
  private readonly upsertAddressStatement;
  private readonly getAddressStatement;
  private readonly listAddressesStatement;
  private readonly deleteCoinsStatement;
  private readonly insertCoinStatement;
  private readonly listCoinsStatement;
  private readonly getCoinStatement;
  private readonly replaceCoinsTransaction;

  constructor(db: Database.Database) {
    this.upsertAddressStatement = db.prepare(`INSERT INTO deposit_addresses
      (profile_id, coin, network, address, tag, url, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (profile_id, coin, network) DO UPDATE SET address = excluded.address,
        tag = excluded.tag, url = excluded.url, fetched_at = excluded.fetched_at`);
    this.getAddressStatement = db.prepare<[string, string, string], DepositAddressRow>(
      `SELECT ${ADDRESS_COLUMNS} FROM deposit_addresses
       WHERE profile_id = ? AND coin = ? AND network = ?`,
    );
    this.listAddressesStatement = db.prepare<[string], DepositAddressRow>(
      `SELECT ${ADDRESS_COLUMNS} FROM deposit_addresses WHERE profile_id = ? ORDER BY coin, network`,
    );
    this.deleteCoinsStatement = db.prepare<[string]>('DELETE FROM coins WHERE profile_id = ?');
    this.insertCoinStatement = db.prepare<[string, string, string, number]>(
      'INSERT INTO coins (profile_id, coin, json, fetched_at) VALUES (?, ?, ?, ?)',
    );
    this.listCoinsStatement = db.prepare<
      [string],
      { coin: string; json: string; fetchedAt: number }
    >('SELECT coin, json, fetched_at AS fetchedAt FROM coins WHERE profile_id = ? ORDER BY coin');
    this.getCoinStatement = db.prepare<
      [string, string],
      { coin: string; json: string; fetchedAt: number }
    >('SELECT coin, json, fetched_at AS fetchedAt FROM coins WHERE profile_id = ? AND coin = ?');
    this.replaceCoinsTransaction = db.transaction(
      (profileId: string, coins: readonly CoinInput[], fetchedAt: number) => {
        this.deleteCoinsStatement.run(profileId);
        for (const coin of coins) {
          this.insertCoinStatement.run(profileId, coin.coin, JSON.stringify(coin), fetchedAt);
        }
      },
    );
  }

  /** Stores the address the exchange gave for (coin, network). */
  saveDepositAddress(
    profileId: string,
    network: string,
    address: DepositAddressInput,
    fetchedAt: number,
  ): DepositAddressRow {
    if (!address.coin || !network) {
      throw new StoreInputError('deposit address needs a coin and a network');
    }
    if (!address.address) {
      throw new StoreInputError(`deposit address of ${address.coin}/${network} is empty`);
    }
    integerMs(fetchedAt, 'fetchedAt');
    this.upsertAddressStatement.run(
      profileId,
      address.coin,
      network,
      address.address,
      address.tag ?? '',
      address.url ?? '',
      fetchedAt,
    );
    return this.getDepositAddress(profileId, address.coin, network)!;
  }

  getDepositAddress(profileId: string, coin: string, network: string): DepositAddressRow | null {
    return this.getAddressStatement.get(profileId, coin, network) ?? null;
  }

  listDepositAddresses(profileId: string): DepositAddressRow[] {
    return this.listAddressesStatement.all(profileId);
  }

  /** Replaces the profile's coin list with the exchange's (one transaction). */
  replaceCoins(profileId: string, coins: readonly CoinInput[], fetchedAt: number): void {
    integerMs(fetchedAt, 'fetchedAt');
    const seen = new Set<string>();
    for (const coin of coins) {
      if (!coin.coin) throw new StoreInputError('coin entry without a coin name');
      if (seen.has(coin.coin)) throw new StoreInputError(`coin ${coin.coin} appears twice`);
      seen.add(coin.coin);
    }
    this.replaceCoinsTransaction(profileId, coins, fetchedAt);
  }

  /** The cached coin list, each as the exchange sent it (T: the wire's CoinInfo). */
  listCoins<T extends CoinInput = CoinInput>(profileId: string): CoinRow<T>[] {
    return this.listCoinsStatement.all(profileId).map((row) => ({
      coin: row.coin,
      info: JSON.parse(row.json) as T,
      fetchedAt: row.fetchedAt,
    }));
  }

  getCoin<T extends CoinInput = CoinInput>(profileId: string, coin: string): CoinRow<T> | null {
    const row = this.getCoinStatement.get(profileId, coin);
    return row
      ? { coin: row.coin, info: JSON.parse(row.json) as T, fetchedAt: row.fetchedAt }
      : null;
  }
}
