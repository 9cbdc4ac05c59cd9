import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/core/clock';
import { startSandbox, type TestSandbox } from '../../electron/sandbox/testing';
import { formatUtc } from '../../electron/sandbox/wallet';
import { raw, shape, signed, worldKeys } from './helpers';

const NOW = Date.UTC(2026, 5, 1, 12);
const DAY = 86_400_000;
let sandbox: TestSandbox;
let keys: ReturnType<typeof worldKeys>;

beforeAll(async () => {
  sandbox = await startSandbox({ clock: new ManualClock(NOW), rateLimits: false });
  keys = worldKeys(sandbox);
});
afterAll(() => sandbox.close());

type Record_ = {
  id: string;
  createdAt: string;
  status: number;
  partnerTransfer: boolean;
  coin: string;
  withdrawOrderId?: string;
  address?: string;
  network?: string;
  txId?: string;
  failureInfo: string;
};
const toMs = (text: string) => Date.parse(text.replace(' ', 'T') + 'Z');

const BASE58 = '[1-9A-HJ-NP-Za-km-z]';
/** What an address of each network looks like. */
const ADDRESS_SHAPES: Record<string, RegExp> = {
  BTC: /^bc1q[02-9ac-hj-np-z]{38}$/,
  ETH: /^0x[0-9a-f]{40}$/,
  BSC: /^0x[0-9a-f]{40}$/,
  ARBITRUM: /^0x[0-9a-f]{40}$/,
  TRX: new RegExp(`^T${BASE58}{33}$`),
  SOL: new RegExp(`^${BASE58}{32,44}$`),
  XRP: new RegExp(`^r${BASE58}{24,34}$`),
};
/** What a transaction id of each network looks like. */
const TX_ID_SHAPES: Record<string, RegExp> = {
  BTC: /^[0-9a-f]{64}$/,
  ETH: /^0x[0-9a-f]{64}$/,
  BSC: /^0x[0-9a-f]{64}$/,
  ARBITRUM: /^0x[0-9a-f]{64}$/,
  TRX: /^[0-9a-f]{64}$/,
  SOL: new RegExp(`^${BASE58}{86,88}$`),
  XRP: /^[0-9A-F]{64}$/,
};

/** Whether `text` holds 12 or more consecutive characters of any of the world's API keys. */
function sharesKeyMaterial(text: string): boolean {
  const lower = text.toLowerCase();
  for (const account of sandbox.world.accounts) {
    for (const key of account.keys) {
      for (const material of [key.apiKey, key.secretKey]) {
        for (let i = 0; i + 12 <= material.length; i++) {
          if (lower.includes(material.slice(i, i + 12).toLowerCase())) return true;
        }
      }
    }
  }
  return false;
}

describe('coins and deposit addresses', () => {
  it('lists coins with networks, memos and disabled deposits/withdrawals', async () => {
    const coins = (await signed(sandbox, keys.trade, 'GET', 'coins')).body;
    expect(shape(coins[0])).toEqual({
      coin: 'string',
      minPartnerTransfer: 'string',
      name: 'string',
      networkList: 'array',
      partnerTransferEnable: 'boolean',
      partnerTransferFee: 'string',
      rapidListed: 'boolean',
    });
    const networks = coins.flatMap(
      (c: { networkList: Record<string, unknown>[] }) => c.networkList,
    );
    expect(networks.some((n: { memoRequired: boolean }) => n.memoRequired)).toBe(true);
    expect(networks.some((n: { depositEnable: boolean }) => !n.depositEnable)).toBe(true);
    expect(networks.some((n: { withdrawEnable: boolean }) => !n.withdrawEnable)).toBe(true);
    expect(
      networks.some(
        (n: { withdrawIntegerMultiple?: string }) => n.withdrawIntegerMultiple !== undefined,
      ),
    ).toBe(true);
    const btc = networks.find(
      (n: { coin: string; network: string }) => n.coin === 'btc' && n.network === 'BTC',
    );
    expect(shape(btc)).toEqual({
      coin: 'string',
      confirmations: 'number',
      depositEnable: 'boolean',
      isDefault: 'boolean',
      memoRequired: 'boolean',
      name: 'string',
      network: 'string',
      withdrawEnable: 'boolean',
      withdrawFee: 'string',
      withdrawMax: 'string',
      withdrawMin: 'string',
    });
  });

  it('gives a stable deposit address per account, coin and network', async () => {
    const a = (
      await signed(sandbox, keys.trade, 'GET', 'crypto/deposits/address', {
        coin: 'usdt',
        network: 'TRX',
      })
    ).body;
    expect(shape(a)).toEqual({ address: 'string', coin: 'string', tag: 'string', url: 'string' });
    expect(
      (
        await signed(sandbox, keys.readOnly, 'GET', 'crypto/deposits/address', {
          coin: 'usdt',
          network: 'TRX',
        })
      ).body,
    ).toEqual(a);
    const other = (
      await signed(sandbox, keys.trade, 'GET', 'crypto/deposits/address', {
        coin: 'usdt',
        network: 'ETH',
      })
    ).body;
    expect(other.address).not.toBe(a.address);
    const sub = (
      await signed(sandbox, keys.subKey, 'GET', 'crypto/deposits/address', {
        coin: 'usdt',
        network: 'TRX',
      })
    ).body;
    expect(sub.address).not.toBe(a.address);
    const memo = (
      await signed(sandbox, keys.trade, 'GET', 'crypto/deposits/address', {
        coin: 'xrp',
        network: 'XRP',
      })
    ).body;
    expect(memo.tag).not.toBe('');
  });

  it('gives deposit addresses shaped like their networks, not derived from the keys', async () => {
    const coins = (await signed(sandbox, keys.trade, 'GET', 'coins')).body as {
      coin: string;
      networkList: { network: string; depositEnable: boolean }[];
    }[];
    let checked = 0;
    for (const coin of coins) {
      for (const network of coin.networkList.filter((n) => n.depositEnable)) {
        const { address } = (
          await signed(sandbox, keys.trade, 'GET', 'crypto/deposits/address', {
            coin: coin.coin,
            network: network.network,
          })
        ).body as { address: string };
        expect(address, `${coin.coin} on ${network.network}`).toMatch(
          ADDRESS_SHAPES[network.network]!,
        );
        expect(sharesKeyMaterial(address)).toBe(false);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });

  it('refuses unknown coins, unknown networks and disabled deposits clearly', async () => {
    const unknownCoin = await signed(sandbox, keys.trade, 'GET', 'crypto/deposits/address', {
      coin: 'doge',
      network: 'DOGE',
    });
    expect(unknownCoin).toMatchObject({
      status: 400,
      body: { code: 1999, message: expect.stringContaining('unknown coin doge') },
    });
    const unknownNetwork = await signed(sandbox, keys.trade, 'GET', 'crypto/deposits/address', {
      coin: 'btc',
      network: 'LIGHTNING',
    });
    expect(unknownNetwork.body.message).toContain('btc has no network LIGHTNING');
    const disabled = await signed(sandbox, keys.trade, 'GET', 'crypto/deposits/address', {
      coin: 'btc',
      network: 'BSC',
    });
    expect(disabled.body.message).toBe('Deposits of btc on network BSC are currently disabled');
    expect(
      (await signed(sandbox, keys.trade, 'GET', 'crypto/deposits/address', { coin: 'btc' })).body
        .message,
    ).toBe('network is missing');
  });
});

describe('withdraw history', () => {
  const query = async (params: Record<string, string | number> = {}) => {
    const reply = await signed(sandbox, keys.trade, 'GET', 'crypto/withdraws', params);
    expect(reply.status).toBe(200);
    return reply.body as Record_[];
  };

  it('returns the last 90 days newest first, with both kinds and every status', async () => {
    const records = await query({ limit: 1000 });
    expect(records.length).toBeGreaterThan(20);
    const times = records.map((r) => toMs(r.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(Math.floor((NOW - 90 * DAY) / 1000) * 1000);
    expect(new Set(records.map((r) => r.status))).toEqual(new Set([0, 1, 2, 3]));
    expect(records.some((r) => r.partnerTransfer)).toBe(true);
    expect(records.some((r) => !r.partnerTransfer)).toBe(true);
    expect(records.some((r) => r.withdrawOrderId !== undefined)).toBe(true);
    for (const r of records) {
      expect(r.createdAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(typeof r.id).toBe('string');
      if (r.partnerTransfer) {
        expect(r.address).toBeUndefined();
        expect(r.network).toBeUndefined();
        expect(r.txId).toBeUndefined();
      } else {
        expect(r.address).toBeTruthy();
      }
      expect(r.failureInfo === '').toBe(r.status !== 1);
    }
  });

  it('shows addresses and txIds shaped like their networks, not derived from the keys', async () => {
    const records = await query({ limit: 1000 });
    const networks = new Set<string>();
    for (const r of records.filter((r) => !r.partnerTransfer)) {
      networks.add(r.network!);
      expect(r.address, `${r.coin} on ${r.network}`).toMatch(ADDRESS_SHAPES[r.network!]!);
      if (r.txId !== undefined) expect(r.txId).toMatch(TX_ID_SHAPES[r.network!]!);
      for (const text of [r.address!, r.txId ?? '', r.withdrawOrderId ?? '']) {
        expect(sharesKeyMaterial(text), text).toBe(false);
      }
    }
    expect(networks.size).toBeGreaterThanOrEqual(4);
  });

  it('filters by coin, transferType, status and withdrawOrderId, pages with offset and limit', async () => {
    const all = await query({ limit: 1000 });
    expect((await query({ coin: 'btc', limit: 1000 })).every((r) => r.coin === 'btc')).toBe(true);
    expect((await query({ transferType: 1, limit: 1000 })).every((r) => !r.partnerTransfer)).toBe(
      true,
    );
    const partner = await query({ transferType: 2, limit: 1000 });
    expect(partner.length).toBe(all.filter((r) => r.partnerTransfer).length);
    for (const status of [0, 1, 2, 3]) {
      expect((await query({ status, limit: 1000 })).map((r) => r.id)).toEqual(
        all.filter((r) => r.status === status).map((r) => r.id),
      );
    }
    const withId = all.find((r) => r.withdrawOrderId !== undefined)!;
    expect((await query({ withdrawOrderId: withId.withdrawOrderId! })).map((r) => r.id)).toEqual([
      withId.id,
    ]);
    expect((await query({ offset: 3, limit: 5 })).map((r) => r.id)).toEqual(
      all.slice(3, 8).map((r) => r.id),
    );
    expect(await query({ limit: 2 })).toHaveLength(2);
    expect((await query()).length).toBe(Math.min(100, all.length));
  });

  it('applies startTime/endTime inclusively and the 90-day rule', async () => {
    const older = await query({
      startTime: NOW - 200 * DAY,
      endTime: NOW - 120 * DAY,
      limit: 1000,
    });
    expect(older.length).toBeGreaterThan(0);
    for (const r of older) {
      expect(toMs(r.createdAt)).toBeGreaterThanOrEqual(NOW - 200 * DAY - 1000);
      expect(toMs(r.createdAt)).toBeLessThanOrEqual(NOW - 120 * DAY);
    }
    const exactMs = NOW - 5 * DAY;
    sandbox.admin.seedWithdrawHistory(keys.subs[1]!.email, {
      count: 1,
      fromMs: exactMs,
      toMs: exactMs,
      seed: 3,
    });
    const subKey = keys.subs[1]!.keys[0]!;
    const inclusive = await signed(sandbox, subKey, 'GET', 'crypto/withdraws', {
      startTime: exactMs,
      endTime: exactMs,
    });
    expect(inclusive.body.map((r: Record_) => r.createdAt)).toEqual([formatUtc(exactMs)]);
    const tooLong = await signed(sandbox, keys.trade, 'GET', 'crypto/withdraws', {
      startTime: NOW - 90 * DAY,
      endTime: NOW,
    });
    expect(tooLong).toMatchObject({ status: 400, body: { code: 1999 } });
    expect(
      (
        await signed(sandbox, keys.trade, 'GET', 'crypto/withdraws', {
          startTime: NOW - 90 * DAY + 1,
          endTime: NOW,
        })
      ).status,
    ).toBe(200);
    for (const bad of <Record<string, string | number>[]>[
      { status: 4 },
      { transferType: 3 },
      { limit: 1001 },
      { limit: 0 },
      { offset: -1 },
      { startTime: 'x' },
    ]) {
      expect((await signed(sandbox, keys.trade, 'GET', 'crypto/withdraws', bad)).body.code).toBe(
        1999,
      );
    }
  });

  it('records withdrawals requested and settled through admin, refunding failures', async () => {
    const email = keys.subs[0]!.email;
    const before = sandbox.admin.balances(email).find((b) => b.asset === 'usdt')!.free;
    const { id } = sandbox.admin.requestWithdrawal(email, {
      coin: 'usdt',
      network: 'TRX',
      amount: '100',
      address: 'TXyz',
      withdrawOrderId: 'w-1',
    });
    expect(sandbox.admin.balances(email).find((b) => b.asset === 'usdt')!.free).toBe(
      String(Number(before) - 101),
    );
    const subKey = keys.subKey;
    const pending = (
      await signed(sandbox, subKey, 'GET', 'crypto/withdraws', { withdrawOrderId: 'w-1' })
    ).body[0];
    expect(pending).toMatchObject({
      id,
      status: 2,
      amount: '100',
      transactionFee: '1',
      network: 'TRX',
      address: 'TXyz',
    });
    const funds = (await signed(sandbox, subKey, 'GET', 'funds')).body;
    expect(funds.find((f: { asset: string }) => f.asset === 'usdt').reservedFee).toBe('1');
    sandbox.admin.settleWithdrawal(id, 'failed');
    const failed = (
      await signed(sandbox, subKey, 'GET', 'crypto/withdraws', { withdrawOrderId: 'w-1' })
    ).body[0];
    expect(failed.status).toBe(1);
    expect(failed.failureInfo).not.toBe('');
    expect(sandbox.admin.balances(email).find((b) => b.asset === 'usdt')!.free).toBe(before);
    const ok = sandbox.admin.requestWithdrawal(email, {
      coin: 'btc',
      network: 'BTC',
      amount: '0.01',
      address: 'bc1qx',
    });
    sandbox.admin.settleWithdrawal(ok.id, 'success');
    const done = (
      await signed(sandbox, subKey, 'GET', 'crypto/withdraws', { coin: 'btc', status: 0 })
    ).body;
    // A Bitcoin transaction id: 64 hex digits.
    expect(done.find((r: Record_) => r.id === ok.id).txId).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers a filtered query on 100k records', async () => {
    const email = 'bulk@spotfolio.test';
    sandbox.admin.createAccount({ email });
    const key = sandbox.admin.createApiKey(email);
    expect(
      sandbox.admin.seedWithdrawHistory(email, {
        count: 100_000,
        fromMs: NOW - 400 * DAY,
        toMs: NOW,
        seed: 9,
      }),
    ).toBe(100_000);
    const page = (
      await signed(sandbox, key, 'GET', 'crypto/withdraws', {
        startTime: NOW - 30 * DAY,
        endTime: NOW,
        status: 1,
        offset: 10,
        limit: 50,
      })
    ).body;
    expect(page).toHaveLength(50);
    expect(page.every((r: Record_) => r.status === 1)).toBe(true);
  });
});

describe('sub-accounts', () => {
  it('lists sub-accounts with balances and a usdt portfolio value', async () => {
    const subs = (await signed(sandbox, keys.trade, 'GET', 'sub_account/accounts')).body;
    expect(subs.map((s: { email: string }) => s.email)).toEqual(keys.subs.map((s) => s.email));
    expect(shape(subs[0])).toEqual({
      action: 'string',
      balance: 'array',
      created_at: 'number',
      email: 'string',
      emailVerification: 'string',
      portfolio: 'string',
      status: 'string',
    });
    expect(subs[0]).toMatchObject({
      action: 'none',
      emailVerification: 'verified',
      status: 'active',
    });
    expect(Number(subs[0].portfolio)).toBeGreaterThan(0);
    expect(shape(subs[0].balance[0])).toEqual({ balance: 'string', symbol: 'string' });
  });

  it('transfers either way between the parent and its own sub, and records the history', async () => {
    const sub = keys.subs[1]!.email;
    const down = await signed(sandbox, keys.trade, 'POST', 'sub_account/fund_transfer', {
      currency: 'usdt',
      amount: '25.5',
      fromEmail: keys.parent.email,
      toEmail: sub,
    });
    expect(down.status).toBe(200);
    expect(shape(down.body)).toEqual({ status: 'string', txnId: 'number' });
    const up = await signed(sandbox, keys.trade, 'POST', 'sub_account/fund_transfer', {
      currency: 'usdt',
      amount: '5',
      fromEmail: sub,
      toEmail: keys.parent.email,
    });
    expect(up.body.status).toBe('success');
    const history = (await signed(sandbox, keys.trade, 'GET', 'sub_account/fund_transfer/history'))
      .body;
    expect(shape(history[0])).toEqual({
      asset: 'string',
      from: 'string',
      qty: 'string',
      status: 'string',
      time: 'number',
      to: 'string',
      txnId: 'number',
    });
    expect(history.slice(-2)).toMatchObject([
      {
        asset: 'usdt',
        from: keys.parent.email,
        to: sub,
        qty: '25.5',
        status: 'success',
        txnId: down.body.txnId,
      },
      { asset: 'usdt', from: sub, to: keys.parent.email, qty: '5', txnId: up.body.txnId },
    ]);
  });

  it('refuses transfers over the balance, outside the family, sub to sub, and by a sub key', async () => {
    const [s1, s2] = keys.subs.map((s) => s.email);
    const before = sandbox.admin.balances(keys.parent.email);
    const transfer = (key: typeof keys.trade, params: Record<string, string>) =>
      signed(sandbox, key, 'POST', 'sub_account/fund_transfer', params);
    expect(
      await transfer(keys.trade, {
        currency: 'btc',
        amount: '1000',
        fromEmail: keys.parent.email,
        toEmail: s1!,
      }),
    ).toMatchObject({
      status: 400,
      body: { code: 2002, message: 'Not enough BTC balance for this transfer' },
    });
    sandbox.admin.createAccount({ email: 'stranger@example.com' });
    expect(
      (
        await transfer(keys.trade, {
          currency: 'usdt',
          amount: '1',
          fromEmail: keys.parent.email,
          toEmail: 'stranger@example.com',
        })
      ).body.code,
    ).toBe(1999);
    expect(
      (await transfer(keys.trade, { currency: 'usdt', amount: '1', fromEmail: s1!, toEmail: s2! }))
        .body,
    ).toMatchObject({ code: 1999, message: expect.stringContaining('between two sub-accounts') });
    expect(
      (
        await transfer(keys.trade, {
          currency: 'usdt',
          amount: '-1',
          fromEmail: keys.parent.email,
          toEmail: s1!,
        })
      ).body.code,
    ).toBe(1999);
    expect(
      (await transfer(keys.trade, { currency: 'usdt', fromEmail: keys.parent.email, toEmail: s1! }))
        .body.message,
    ).toBe('amount is missing');
    expect(
      await transfer(keys.subKey, {
        currency: 'usdt',
        amount: '1',
        fromEmail: s1!,
        toEmail: keys.parent.email,
      }),
    ).toMatchObject({ status: 403, body: { code: 2078 } });
    for (const path of ['sub_account/accounts', 'sub_account/fund_transfer/history']) {
      expect((await signed(sandbox, keys.subKey, 'GET', path)).body.code).toBe(2078);
    }
    expect(sandbox.admin.balances(keys.parent.email)).toEqual(before);
  });
});

describe('API key permissions', () => {
  it('applies security-type restrictions, IP allow-lists and the 5-key cap', async () => {
    const email = 'keys@spotfolio.test';
    sandbox.admin.createAccount({ email });
    sandbox.admin.credit(email, 'usdt', '1000');
    const noTrade = sandbox.admin.createApiKey(email, {
      canTrade: true,
      allowedSecurityTypes: ['MARKET_DATA', 'USER_DATA'],
    });
    const order = {
      symbol: 'btcusdt',
      side: 'buy',
      type: 'limit',
      quantity: '0.001',
      price: '1000',
    };
    expect((await signed(sandbox, noTrade, 'POST', 'order', order)).body.code).toBe(2078);
    expect((await signed(sandbox, noTrade, 'GET', 'myTrades')).body.code).toBe(2078);
    expect((await signed(sandbox, noTrade, 'GET', 'funds')).status).toBe(200);
    const tradeOnly = sandbox.admin.createApiKey(email, {
      canTrade: true,
      allowedSecurityTypes: ['TRADE'],
    });
    expect((await signed(sandbox, tradeOnly, 'POST', 'order', order)).status).toBe(200);
    expect((await signed(sandbox, tradeOnly, 'GET', 'funds')).body.code).toBe(2078);
    expect(
      (
        await raw(sandbox, 'GET', 'historicalTrades', {
          query: 'symbol=btcusdt',
          apiKey: tradeOnly.apiKey,
        })
      ).body.code,
    ).toBe(2078);
    const elsewhere = sandbox.admin.createApiKey(email, { ipAllowList: ['10.1.2.3'] });
    expect(await signed(sandbox, elsewhere, 'GET', 'funds')).toMatchObject({
      status: 403,
      body: { code: 2078 },
    });
    const local = sandbox.admin.createApiKey(email, { ipAllowList: ['127.0.0.1'] });
    expect((await signed(sandbox, local, 'GET', 'funds')).status).toBe(200);
    sandbox.admin.createApiKey(email);
    expect(() => sandbox.admin.createApiKey(email)).toThrow(
      'an account may have at most 5 API keys',
    );
    sandbox.admin.revokeApiKey(local.apiKey);
    expect((await signed(sandbox, local, 'GET', 'funds')).body.code).toBe(2111);
    expect(sandbox.admin.createApiKey(email).apiKey).toMatch(/^[0-9a-f]{64}$/);
  });
});
