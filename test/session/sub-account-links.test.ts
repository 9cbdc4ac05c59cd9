/**
 * A sub-account linked to its own key (issue 21, item 2), against the sandbox over real HTTP and
 * WebSocket, a real SQLite record and the keychain of the run (scripts/with-keyring.sh): the key
 * is checked to be that sub-account's (not the parent's, not another's, accepted by the
 * exchange), kept in the keychain only (sealed with the lock password once one is set), and the
 * ledger then reads the sub-account's own trades (the import and its private stream) where it
 * inferred deposits and debits before. Unlinking removes the entry and keeps what the user wrote.
 */
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpotfolioApp } from '../../electron/app';
import type { ExchangeClient } from '../../electron/exchange/client';
import type { TestSandbox } from '../../electron/sandbox/testing';
import type { WorldAccount } from '../../electron/sandbox/world';
import { isSealed, subAccountKeyId, type Keychain, type KeyVault } from '../../electron/secrets';
import { openStore } from '../../electron/store';
import { eventually, folderKeys } from '../api/helpers';
import { subAccountWorld, type SubAccountWorld } from './sub-account-world';

let world: SubAccountWorld;
let sandbox: TestSandbox;
let app: SpotfolioApp;
let dispatch: SubAccountWorld['dispatch'];
let keychain: Keychain;
let vault: KeyVault;
let dir: SubAccountWorld['dir'];
let parent: WorldAccount;
let savings: WorldAccount;
let desk: WorldAccount;
let profileId = '';
/** The read-only key of `savings` the tests link. */
let readOnly = { apiKey: '', secretKey: '' };

const clientOf = (account: WorldAccount) => world.clientOf(account.keys[0]!);

/** Buys `quantity` BTC for the account at the best ask: a taker fill, at once. */
async function buyBtc(client: ExchangeClient, quantity: string): Promise<void> {
  const book = await client.market.depth({ symbol: 'btcusdt', limit: 5 });
  await client.trading.placeOrder({
    symbol: 'btcusdt',
    side: 'buy',
    type: 'limit',
    quantity,
    price: book.asks[0]![0],
  });
}

function keyOf(account: WorldAccount) {
  return { apiKey: account.keys[0]!.apiKey, secretKey: account.keys[0]!.secretKey };
}

function linkRows() {
  const { store } = openStore({ dataDir: dir.path });
  try {
    return store.subAccountKeys.links(profileId);
  } finally {
    store.close();
  }
}

beforeAll(async () => {
  world = await subAccountWorld(57);
  ({ sandbox, app, dispatch, keychain, dir, parent, savings, desk, profileId } = world);
  vault = folderKeys(dir.path, keychain);
});

afterAll(() => world?.close());

describe('linking a sub-account to its own key', () => {
  it('refuses bad input naming the field, and keeps nothing', async () => {
    const link = (input: Record<string, string>) =>
      dispatch('subAccounts.link', { email: savings.email, ...keyOf(savings), ...input });
    // Empty: the bridge's check, before anything is sent.
    expect(await link({ apiKey: '' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', field: 'apiKey', message: "Enter the sub-account's API key" },
    });
    expect(await link({ secretKey: '  ' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', field: 'secretKey' },
    });
    // The main account's own key.
    expect(await link(keyOf(parent))).toMatchObject({
      ok: false,
      error: {
        kind: 'invalid-input',
        field: 'apiKey',
        message: expect.stringMatching(/main account/),
      },
    });
    // The parent's read-only key: a main account's key too (it may list the sub-accounts).
    const readOnly = parent.keys.find((k) => !k.canTrade)!;
    expect(await link({ apiKey: readOnly.apiKey, secretKey: readOnly.secretKey })).toMatchObject({
      ok: false,
      error: { field: 'apiKey', message: expect.stringMatching(/belongs to a main account/) },
    });
    // The other sub-account's key: its balances are that account's.
    expect(await link(keyOf(desk))).toMatchObject({
      ok: false,
      error: { field: 'apiKey', message: expect.stringContaining(`key of ${desk.email}`) },
    });
    // A key the exchange does not know, and a wrong secret.
    expect(await link({ apiKey: 'not-a-key-of-this-exchange' })).toMatchObject({
      ok: false,
      error: { field: 'apiKey', message: expect.stringMatching(/does not know this API key/) },
    });
    expect(await link({ secretKey: 'a-wrong-secret-key' })).toMatchObject({
      ok: false,
      error: { field: 'secretKey', message: expect.stringMatching(/signature/) },
    });
    // An account that is no sub-account of the profile.
    expect(await link({ email: 'stranger@example.test' })).toMatchObject({
      ok: false,
      error: { field: 'email' },
    });
    expect(await vault.list()).toEqual([profileId]);
    expect(linkRows()).toEqual([]);
  });

  it("keeps the key in the keychain, reads the sub-account's trades and stream into the ledger", async () => {
    const sub = clientOf(savings);
    // A trade before the link: until linked, it is an inferred movement of the sub-account.
    await buyBtc(sub, '0.01');
    const before = await app.handlers['ledger.summary']({ account: savings.email });
    expect(before.unseenTrades).toEqual([savings.email]);

    // Read-only is enough for the link.
    readOnly = sandbox.admin.createApiKey(savings.email, { canTrade: false });
    const view = await app.handlers['subAccounts.link']({ email: savings.email, ...readOnly });
    expect(view.accounts.find((a) => a.email === savings.email)?.link).toMatchObject({
      apiKeyMasked: expect.stringContaining('…'),
    });
    expect(view.accounts.find((a) => a.email === desk.email)?.link).toBeNull();
    // In the keychain under its own entry, never in the record (which keeps the masked key).
    const entryId = subAccountKeyId(profileId, savings.email);
    expect(await vault.get(entryId)).toEqual(readOnly);
    expect(linkRows()).toEqual([
      {
        email: savings.email,
        apiKeyMasked: expect.not.stringContaining(readOnly.apiKey),
        linkedAt: expect.any(Number),
      },
    ]);

    // The import reads the trade made before; one made now comes over its private stream.
    const trades = async () =>
      (await sub.trading.myTrades({ symbol: 'btcusdt' })).map((t) => String(t.id)).sort();
    const ledgerTrades = async () =>
      (await app.handlers['ledger.asset']({ asset: 'btc', account: savings.email })).entries
        .filter((e) => e.kind === 'trade')
        .map((e) => e.id)
        .sort();
    await eventually('the earlier trade in the ledger', async () => {
      const want = await trades();
      const got = await ledgerTrades();
      return want.length === 1 && JSON.stringify(got) === JSON.stringify(want) ? true : undefined;
    });
    // Once the import has stopped walking, a new trade can only come over the stream.
    await eventually('the import to finish', async () =>
      (await app.handlers['ledger.summary']({})).import.state === 'running' ? undefined : true,
    );
    const reads = sandbox.admin.faults.count({ path: '/sapi/v1/myTrades' });
    await buyBtc(sub, '0.02');
    await eventually('the streamed trade in the ledger', async () =>
      (await ledgerTrades()).length === 2 ? true : undefined,
    );
    expect(sandbox.admin.faults.count({ path: '/sapi/v1/myTrades' })).toBe(reads);
    expect(await ledgerTrades()).toEqual(await trades());
    const page = await app.handlers['ledger.asset']({ asset: 'btc', account: savings.email });
    // No inferred movement stands for a trade any more: only the seeded opening balance is one.
    const inferred = page.entries.filter((e) => e.kind === 'inferred');
    expect(
      inferred.every(
        (e) =>
          e.time < Math.min(...page.entries.filter((t) => t.kind === 'trade').map((t) => t.time)),
      ),
    ).toBe(true);
    const held = sandbox.admin.balances(savings.email).find((b) => b.asset === 'btc')!;
    await eventually('the ledger to hold what the exchange holds', async () => {
      const btc = await app.handlers['ledger.asset']({ asset: 'btc', account: savings.email });
      return new Decimal(btc.figures.quantity).eq(new Decimal(held.free).plus(held.locked))
        ? true
        : undefined;
    });
    const summary = await app.handlers['ledger.summary']({});
    expect(summary.unseenTrades).toEqual([desk.email]);

    // A transfer made elsewhere moves the sub-account's balance with no trade: the transfer
    // history is read again at once (not at its minute), and the move is a transfer, not inferred.
    const transfers = () => {
      const { store } = openStore({ dataDir: dir.path });
      try {
        return store.subAccounts.transfers(profileId).total;
      } finally {
        store.close();
      }
    };
    const known = transfers();
    await clientOf(parent).subAccounts.transfer({
      currency: 'usdt',
      amount: '25',
      fromEmail: savings.email,
      toEmail: parent.email,
    });
    await eventually('the transfer read again', () =>
      transfers() === known + 1 ? true : undefined,
    );
  });

  it('seals the entry with the lock password', async () => {
    await app.handlers['lock.setPassword']({ password: 'correct horse 42' });
    const text = await keychain.read(vault.account(subAccountKeyId(profileId, savings.email)));
    expect(text).not.toBeNull();
    expect(isSealed(text!)).toBe(true);
    expect(text).not.toContain(readOnly.secretKey);
    await app.handlers['lock.removePassword']({ current: 'correct horse 42' });
  });

  it('unlinks: the entry goes, the trades read with it go, the labels stay', async () => {
    const page = await app.handlers['ledger.asset']({ asset: 'usdt', account: savings.email });
    const opening = page.entries.find((e) => e.kind === 'inferred')!;
    await app.handlers['ledger.annotate']({ id: opening.id, label: 'Seed money' });
    const view = await app.handlers['subAccounts.unlink']({ email: savings.email });
    expect(view.accounts.find((a) => a.email === savings.email)?.link).toBeNull();
    expect(await vault.list()).toEqual([profileId]);
    expect(linkRows()).toEqual([]);
    const after = await app.handlers['ledger.summary']({ account: savings.email });
    expect(after.unseenTrades).toEqual([savings.email]);
    const usdt = await app.handlers['ledger.asset']({ asset: 'usdt', account: savings.email });
    expect(usdt.entries.filter((e) => e.kind === 'trade')).toEqual([]);
    const labelled = usdt.entries.filter((e) => e.inferred?.label === 'Seed money');
    const reviewed = usdt.reviews.filter((r) => r.label === 'Seed money');
    expect(labelled.length + reviewed.length).toBeGreaterThan(0);
    expect((await dispatch('subAccounts.unlink', { email: savings.email })).ok).toBe(false);
  });
});
