/**
 * Sub-accounts linked to their own API key. The parent's key reads a sub-account's balances (the
 * sub-account list) and the transfers between the accounts, never its trades: a key of the
 * sub-account's own reads those. Linking checks the key with the exchange before anything is
 * kept:
 *
 * - a signed call with it must succeed (the exchange accepts the key and its signature);
 * - it must not be a main account's key: the interface's sub-account list is for the parent's
 *   key only ("a sub-account's key gets 2078"), so a key that can read one is a parent's;
 * - it must be this sub-account's: the interface names no account in any answer a key may read
 *   of itself, so the key's own funds (free + locked per asset) are compared with what the
 *   parent's key reads of each sub-account at the same moment; they must be this one's and no
 *   other's (two sub-accounts holding exactly the same cannot be told apart, and the link is
 *   refused with what to do). A balance moving between the two reads makes them read again once;
 * - its private stream must open (as on adding a profile).
 *
 * The pair is then kept in the keychain beside the profile's (its entry sealed with the lock's
 * password like every other), the link (the masked key) in the record, and the active session
 * starts the sub-account's feed (live/sub-account-feed.ts). Unlinking deletes the keychain entry,
 * the link and the trades and orders read with the key; labels and cost bases are the record's
 * and stay. The feed's client also cancels the sub-account's orders (orders/desk.ts).
 */
import { Decimal } from '../../shared/exact-decimal';
import { assetKey } from '../../shared/market';
import { AppError } from '../core/app-error';
import type { Clock } from '../core/clock';
import type { Emit } from '../core/events';
import type { Logger } from '../core/logger';
import { ExchangeClient } from '../exchange/client';
import { ExchangeError } from '../exchange/errors';
import type { ExchangeLimiters } from '../exchange/limits';
import type { Fund, SubAccountRecord } from '../exchange/wire';
import type { OrderNotices } from '../live/order-notices';
import { SubAccountFeed, type FeedRead } from '../live/sub-account-feed';
import { subAccountKeyId, type ApiSecret, type SecretStore } from '../secrets';
import type { Store } from '../store';
import { maskApiKey } from '../store/profiles';
import type { ProfileRow } from '../store/types';
import type { SyncStorePort } from '../sync/port';
import { subAccountCursorPrefix, type TradeImportProgress } from '../sync/trade-import';
import { verifyPrivateStream } from './stream-check';

export interface SubAccountLinksDeps {
  store: Store;
  port: SyncStorePort;
  /** The exchanges' rate limiters (app.ts): a sub-account's key paces as one wherever used. */
  limiters: ExchangeLimiters;
  clock: Clock;
  emit: Emit;
  log: Logger;
}

/** The session a link is made in: its profile, its key's client and where its keys are kept. */
export interface LinkSession {
  readonly profile: ProfileRow;
  readonly client: Pick<ExchangeClient, 'subAccounts'>;
}

/** What a running feed asks of the session it runs in. */
export interface FeedSession {
  /** What the user is told of orders and fills: each feed tells its account's through it. */
  readonly notices: OrderNotices;
  /** Reads the transfer history again now (a sub-account's balance moved outside trading). */
  transfersMoved(): void;
}

export interface LinkInput {
  email: string;
  apiKey: string;
  secretKey: string;
}

/** The exchange's code for a key that may not call an endpoint (docs/exchange-notes.md). */
const PERMISSION_DENIED = 2078;
const INVALID_API_KEY = 2111;
const API_KEY_MISSING = 2112;

function refuse(field: 'email' | 'apiKey' | 'secretKey', message: string): AppError {
  return new AppError('invalid-input', `${message} Nothing was kept.`, field);
}

/** The exchange's refusal of the key, as the field at fault. */
function keyRejected(error: unknown): never {
  if (error instanceof ExchangeError && error.kind === 'auth') {
    const keyField = error.code === INVALID_API_KEY || error.code === API_KEY_MISSING;
    throw refuse(
      keyField ? 'apiKey' : 'secretKey',
      keyField
        ? `The exchange does not know this API key (${error.exchangeMessage ?? error.message}).`
        : `The exchange refused the signature made with this secret key (${error.exchangeMessage ?? error.message}): check the secret key.`,
    );
  }
  if (error instanceof ExchangeError && error.kind === 'permission') {
    throw refuse(
      'apiKey',
      `The exchange refused this key (${error.exchangeMessage ?? error.message}): it must be allowed to read the account (a read-only key is enough).`,
    );
  }
  throw error;
}

/** An account's holdings as totals by asset, zeros left out, for comparing two reads. */
function holdingsText(entries: readonly { asset: string; total: Decimal }[]): string {
  return entries
    .filter((e) => !e.total.isZero())
    .map((e) => `${assetKey(e.asset)}=${e.total.toFixed()}`)
    .sort()
    .join(',');
}

function fundsHoldings(funds: readonly Fund[]): string {
  return holdingsText(
    funds.map((f) => ({ asset: f.asset, total: new Decimal(f.free).plus(f.locked) })),
  );
}

function recordHoldings(record: SubAccountRecord): string {
  return holdingsText(
    record.balance.map((b) => ({ asset: b.symbol, total: new Decimal(b.balance) })),
  );
}

export class SubAccountLinks {
  /** The active session's feeds, by sub-account; the profile they are of. */
  private feeds = new Map<string, SubAccountFeed>();
  private feedsOf: string | null = null;
  private feedSession: FeedSession | null = null;
  /** One client per linked key for the app's lifetime: its pacing belongs to the key. */
  private readonly clients = new Map<string, ExchangeClient>();

  constructor(private readonly deps: SubAccountLinksDeps) {}

  /**
   * Checks the key with the exchange (see the module comment), keeps it in the keychain and the
   * link in the record, and starts its feed. Nothing is kept when a check fails.
   */
  async link(
    session: LinkSession,
    secrets: SecretStore,
    input: LinkInput,
  ): Promise<{ email: string }> {
    const { store, log } = this.deps;
    const profile = session.profile;
    const email = input.email.trim().toLowerCase();
    const key: ApiSecret = { apiKey: input.apiKey.trim(), secretKey: input.secretKey.trim() };
    const known = store.subAccounts.list(profile.id).rows.map((row) => row.email.toLowerCase());
    if (!known.includes(email)) {
      throw refuse(
        'email',
        `${email} is not a sub-account of "${profile.name}" as the exchange last listed them.`,
      );
    }
    log.secrets.add(key.apiKey, key.secretKey);
    const own = await secrets.get(profile.id);
    if (own?.apiKey === key.apiKey) {
      throw refuse(
        'apiKey',
        `This is the key of the main account of "${profile.name}", not of ${email}.`,
      );
    }
    for (const other of store.subAccountKeys.links(profile.id)) {
      if (other.email === email) continue;
      const kept = await secrets.get(subAccountKeyId(profile.id, other.email));
      if (kept?.apiKey === key.apiKey) {
        throw refuse('apiKey', `This key is already linked to ${other.email}, not ${email}.`);
      }
    }
    const client = new ExchangeClient({
      baseUrl: profile.baseUrl,
      apiKey: key.apiKey,
      secretKey: key.secretKey,
      limiters: this.deps.limiters,
    });
    try {
      await this.verify(session, client, email);
      await verifyPrivateStream({ streamUrl: profile.streamUrl, client }).catch(
        (error: unknown) => {
          throw error instanceof AppError
            ? refuse('apiKey', `This key's private stream did not open: ${error.message}`)
            : error;
        },
      );
    } finally {
      await client.close();
    }
    await secrets.set(subAccountKeyId(profile.id, email), key);
    try {
      store.subAccountKeys.link(profile.id, email, maskApiKey(key.apiKey), this.deps.clock.now());
    } catch (error) {
      await secrets.delete(subAccountKeyId(profile.id, email)).catch(() => undefined);
      throw error;
    }
    log.info(`Linked sub-account ${email} of profile ${profile.id} (${maskApiKey(key.apiKey)})`);
    if (this.feedsOf === profile.id) await this.stopFeed(email);
    // A key linked again may be another: the client of the one before goes.
    await this.closeClient(profile.id, email);
    if (this.feedsOf === profile.id && this.feedSession) {
      this.startFeed(profile, email, key, this.feedSession);
    }
    this.changed(profile.id);
    return { email };
  }

  /**
   * Removes the keychain entry, the link and the trades and orders read with it; labels and costs
   * stay.
   */
  async unlink(session: LinkSession, secrets: SecretStore, emailInput: string): Promise<void> {
    const profile = session.profile;
    const email = emailInput.trim().toLowerCase();
    const linked = this.deps.store.subAccountKeys.links(profile.id).some((l) => l.email === email);
    if (!linked) throw refuse('email', `${email} is not linked to a key of its own.`);
    if (this.feedsOf === profile.id) await this.stopFeed(email);
    await this.closeClient(profile.id, email);
    await secrets.delete(subAccountKeyId(profile.id, email));
    this.deps.store.subAccountKeys.unlink(profile.id, email, subAccountCursorPrefix(email));
    this.deps.log.info(`Unlinked sub-account ${email} of profile ${profile.id}`);
    this.changed(profile.id);
  }

  /**
   * A profile's session starts: a feed for each linked sub-account whose key the keychain holds
   * (one it lacks is logged and shown as linked without its trades read).
   */
  async start(profile: ProfileRow, secrets: SecretStore, session: FeedSession): Promise<void> {
    await this.stop();
    this.feedsOf = profile.id;
    this.feedSession = session;
    for (const link of this.deps.store.subAccountKeys.links(profile.id)) {
      const key = await secrets.get(subAccountKeyId(profile.id, link.email)).catch((error) => {
        this.deps.log.error(`The key of sub-account ${link.email} could not be read`, error);
        return null;
      });
      if (this.feedsOf !== profile.id) return;
      if (!key) {
        this.deps.log.warn(
          `The key of the linked sub-account ${link.email} is not in the keychain`,
        );
        continue;
      }
      this.deps.log.secrets.add(key.apiKey, key.secretKey);
      this.startFeed(profile, link.email, key, session);
    }
  }

  /** The session ends: every feed stops (their clients stay, with their pacing). */
  async stop(): Promise<void> {
    const feeds = [...this.feeds.values()];
    this.feeds = new Map();
    this.feedsOf = null;
    this.feedSession = null;
    await Promise.all(feeds.map((feed) => feed.close()));
  }

  /** A profile is removed: its sub-account keys leave the keychain with its own. */
  async forget(profileId: string, secrets: SecretStore): Promise<void> {
    if (this.feedsOf === profileId) await this.stop();
    for (const link of this.deps.store.subAccountKeys.links(profileId)) {
      await this.closeClient(profileId, link.email);
      await secrets.delete(subAccountKeyId(profileId, link.email));
    }
  }

  async close(): Promise<void> {
    await this.stop();
    await Promise.all([...this.clients.values()].map((client) => client.close()));
    this.clients.clear();
  }

  /** The running feeds' imports, for the ledger's "computing" (complete once each is). */
  importProgress(profileId: string): TradeImportProgress[] {
    if (this.feedsOf !== profileId) return [];
    return [...this.feeds.values()].map((feed) => feed.importProgress());
  }

  /**
   * The client of a linked sub-account's own key (its orders are canceled with it); none when the
   * sub-account is not linked or its key was not in the keychain at the session's start.
   */
  clientOf(profileId: string, account: string): ExchangeClient | undefined {
    if (this.feedsOf !== profileId || !this.feeds.has(account)) return undefined;
    return this.clients.get(subAccountKeyId(profileId, account));
  }

  /** The Orders screen shows the open orders: each running feed reads its own soon. */
  focusOrders(profileId: string): void {
    if (this.feedsOf !== profileId) return;
    for (const feed of this.feeds.values()) feed.focusOrders();
  }

  /** When a running feed last read its open orders, order history or trades; null: not yet. */
  lastReadAt(profileId: string, account: string, what: FeedRead): number | null {
    if (this.feedsOf !== profileId) return null;
    return this.feeds.get(account)?.lastReadAt(what) ?? null;
  }

  /** Reads every running feed's trades, orders and funds now (tests and benches wait on it). */
  async readNow(): Promise<void> {
    await Promise.all([...this.feeds.values()].map((feed) => feed.readNow()));
  }

  private startFeed(
    profile: ProfileRow,
    email: string,
    key: ApiSecret,
    session: FeedSession,
  ): void {
    const id = subAccountKeyId(profile.id, email);
    let client = this.clients.get(id);
    if (!client) {
      client = new ExchangeClient({
        baseUrl: profile.baseUrl,
        apiKey: key.apiKey,
        secretKey: key.secretKey,
        limiters: this.deps.limiters,
      });
      this.clients.set(id, client);
    }
    const feed = new SubAccountFeed({
      store: this.deps.store,
      port: this.deps.port,
      profileId: profile.id,
      account: email,
      client,
      streamUrl: profile.streamUrl,
      clock: this.deps.clock,
      emit: this.deps.emit,
      log: this.deps.log,
      notices: session.notices,
      onMovedOutside: () => this.feedSession?.transfersMoved(),
    });
    this.feeds.set(email, feed);
    feed.start();
  }

  private async stopFeed(email: string): Promise<void> {
    const feed = this.feeds.get(email);
    this.feeds.delete(email);
    await feed?.close();
  }

  private async closeClient(profileId: string, email: string): Promise<void> {
    const id = subAccountKeyId(profileId, email);
    const client = this.clients.get(id);
    this.clients.delete(id);
    await client?.close();
  }

  /**
   * The key is a sub-account's (the parent-only list refuses it) and its funds are `email`'s as
   * the parent's key reads them, no other's. Read twice when a balance moved in between.
   */
  private async verify(session: LinkSession, client: ExchangeClient, email: string): Promise<void> {
    const funds = await client.account.funds().catch(keyRejected);
    try {
      await client.subAccounts.accounts();
      throw refuse(
        'apiKey',
        `This key belongs to a main account (it may list sub-accounts), not to the sub-account ${email}.`,
      );
    } catch (error) {
      if (!(error instanceof ExchangeError && error.code === PERMISSION_DENIED)) throw error;
    }
    let own = fundsHoldings(funds);
    for (let attempt = 0; ; attempt++) {
      const records = await session.client.subAccounts.accounts();
      const matching = records
        .filter((record) => recordHoldings(record) === own)
        .map((record) => record.email.toLowerCase());
      if (matching.includes(email) && matching.length === 1) return;
      if (matching.includes(email)) {
        const others = matching.filter((other) => other !== email).join(', ');
        throw refuse(
          'apiKey',
          `${email} and ${others} hold exactly the same balances, so which of them this key belongs to cannot be told. Move any amount into one of them, then link again.`,
        );
      }
      // A balance may have moved between the two reads: once more, then the answer stands.
      const again = fundsHoldings(await client.account.funds().catch(keyRejected));
      if (attempt === 0 && again !== own) {
        own = again;
        continue;
      }
      if (attempt === 0) continue;
      if (matching.length > 0) {
        throw refuse(
          'apiKey',
          `This key is the key of ${matching.join(', ')}, not of ${email}: its balances are that account's.`,
        );
      }
      throw refuse(
        'apiKey',
        `This key's balances are not those of ${email} (nor of another sub-account of "${session.profile.name}"): it is another account's key.`,
      );
    }
  }

  private changed(profileId: string): void {
    this.deps.emit('data.changed', {
      profileId,
      // The orders too: the accounts they cover and name as unlinked changed.
      kinds: ['subAccounts', 'orders', 'trades', 'funds', 'portfolio'],
    });
  }
}
