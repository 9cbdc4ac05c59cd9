/**
 * Every profile together, against two sandbox exchanges: two profiles (one with a sub-account),
 * each synced by the app's own sync over real HTTP into one SQLite file, on exchanges whose prices
 * differ. The whole's net worth, allocation and each profile's share equal, exactly, what this test
 * computes from each exchange's own balances and prices, in USDT and in BTC; a profile never read
 * and a demo beside real profiles are named as left out.
 */
import Decimal from 'decimal.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../../electron/core/clock';
import { ExchangeClient } from '../../electron/exchange';
import { CandleScheduler, LedgerService } from '../../electron/ledger';
import { AllProfiles } from '../../electron/ledger/all-profiles';
import { createLogger } from '../../electron/log';
import { startSandbox, type TestSandbox } from '../../electron/sandbox/testing';
import { SyncEngine } from '../../electron/sync';
import { PARENT, PROFILE, scenario, type Scenario } from '../sync/helpers';
import { traderAndCounterparty, takeTrade } from '../sync/own-trades';

const SECOND = 'profile-2';
const NEVER_READ = 'profile-3';
const DEMO = 'profile-demo';
const SAVINGS = 'savings@example.test';

let current: { s: Scenario; other: TestSandbox } | undefined;
afterEach(async () => {
  await current?.other.close();
  await current?.s.close();
  current = undefined;
});

/** Exact for sums and products; a quotient is rounded where the test says. */
const Exact = Decimal.clone({ precision: 200, rounding: Decimal.ROUND_HALF_EVEN });

/**
 * A price through an inverse pair or a bridge, rounded once by the rule of Amounts in
 * docs/architecture.md: 40 significant digits and at most 40 fraction digits, half-even.
 */
function quotient(a: Decimal.Value, b: Decimal.Value): Decimal {
  const exact = new Exact(a).div(b);
  const significant = exact.toSignificantDigits(40, Decimal.ROUND_HALF_EVEN);
  return significant.decimalPlaces() > 40
    ? exact.toDecimalPlaces(40, Decimal.ROUND_HALF_EVEN)
    : significant;
}

/** A share of the whole: a ratio rounded half-even to 6 places. */
function share(value: Decimal, total: Decimal): string {
  return value.div(total).toDecimalPlaces(6, Decimal.ROUND_HALF_EVEN).toFixed();
}

async function twoExchanges() {
  const s = await scenario();
  const other = await startSandbox({ world: 'empty', rateLimits: false, seed: 9 });
  current = { s, other };
  // The first exchange: a main account and a sub-account.
  s.sandbox.admin.createAccount({ email: SAVINGS, parentEmail: PARENT });
  for (const [asset, amount] of [
    ['btc', '1.5'],
    ['eth', '2'],
    ['usdt', '1234.56'],
  ] as const) {
    s.sandbox.admin.credit(PARENT, asset, amount);
  }
  s.sandbox.admin.credit(SAVINGS, 'usdt', '100');
  s.sandbox.admin.credit(SAVINGS, 'eth', '0.5');
  // The second exchange: its own account, and BTC last traded there at another price.
  other.admin.createAccount({ email: PARENT });
  const keys = other.admin.createApiKey(PARENT);
  for (const [asset, amount] of [
    ['btc', '0.25'],
    ['xrp', '1000'],
    ['usdt', '50'],
  ] as const) {
    other.admin.credit(PARENT, asset, amount);
  }
  // An empty exchange has no price until a market trades: each market is traded once, at prices
  // that differ between the two exchanges.
  await trades(s.sandbox, [
    ['btcusdt', '0.02', '61250.5'],
    ['ethusdt', '0.2', '3120.25'],
    ['ethbtc', '0.2', '0.05095'],
  ]);
  await trades(other, [
    ['btcusdt', '0.02', '60000.01'],
    ['xrpusdt', '500', '0.5231'],
  ]);

  for (const [id, name, sandbox, isDemo] of [
    [SECOND, 'Second exchange', other, false],
    [NEVER_READ, 'Never read', other, false],
    [DEMO, 'Demo', other, true],
  ] as const) {
    s.store.profiles.create({
      id,
      name,
      baseUrl: sandbox.baseUrl,
      streamUrl: sandbox.streamUrl,
      apiKeyMasked: 'abcd…wxyz',
      canTrade: false,
      canWithdraw: false,
      isDemo,
      createdAt: Date.now(),
    });
  }
  const secondClient = new ExchangeClient({ baseUrl: other.baseUrl, ...keys, rateLimits: false });
  for (const [profileId, client] of [
    [PROFILE, s.client()],
    [SECOND, secondClient],
    // The demo's cache holds the second exchange's figures: left out all the same.
    [DEMO, secondClient],
  ] as const) {
    const sync = new SyncEngine({ store: s.store, client, profileId, emit: s.emit, pacing: false });
    for (const kind of ['symbols', 'prices', 'funds', 'subAccounts', 'trades'] as const) {
      await sync.refresh(kind, { force: true });
      expect(sync.jobStatus(kind).error, `${profileId} ${kind}`).toBeNull();
    }
    await sync.stop();
  }
  // Each exchange's own prices, read from it.
  const last = async (sandbox: TestSandbox, symbol: string) => {
    const response = await fetch(`${sandbox.baseUrl}/sapi/v1/ticker/24hr?symbol=${symbol}`);
    expect(response.ok, symbol).toBe(true);
    return new Exact(((await response.json()) as { lastPrice: string }).lastPrice);
  };
  const prices = {
    first: {
      btcusdt: await last(s.sandbox, 'btcusdt'),
      ethusdt: await last(s.sandbox, 'ethusdt'),
      ethbtc: await last(s.sandbox, 'ethbtc'),
    },
    second: {
      btcusdt: await last(other, 'btcusdt'),
      xrpusdt: await last(other, 'xrpusdt'),
    },
  };
  expect(prices.first.btcusdt.toFixed()).toBe('61250.5');
  expect(prices.second.btcusdt.toFixed()).toBe('60000.01');
  await secondClient.close();

  let currency = 'usdt';
  /** Keyless clients for the profiles' public market data: none until the test gives them. */
  const marketClients = new Map<string, ExchangeClient>();
  const ledger = new LedgerService(s.store);
  const clock = new SystemClock();
  const log = createLogger(() => undefined);
  const candles = new CandleScheduler({ store: s.store, ledger, emit: s.emit, log, clock });
  const together = new AllProfiles({
    store: s.store,
    ledger,
    candles,
    currency: () => currency,
    methodOf: () => 'fifo',
    active: () => null,
    marketClient: (profileId) => marketClients.get(profileId) ?? null,
    now: () => Date.now(),
  });
  return {
    s,
    other,
    prices,
    together,
    marketClients,
    setCurrency: (next: string) => {
      currency = next;
    },
  };
}

/** Each market traded once between two accounts of their own, the buyer taking. */
async function trades(sandbox: TestSandbox, fills: [string, string, string][]): Promise<void> {
  const { trader, counterparty } = traderAndCounterparty(sandbox, 'mover@example.test', '100000');
  sandbox.admin.credit('counterparty@example.test', 'xrp', '100000');
  for (const [symbol, qty, price] of fills) {
    await takeTrade(trader, counterparty, { symbol, side: 'buy', qty, price });
  }
  await Promise.all([trader.close(), counterparty.close()]);
}

/** Each exchange's own balances (every account), as the exchange's admin surface states them. */
function held(sandbox: TestSandbox, emails: string[]): Map<string, Decimal> {
  const total = new Map<string, Decimal>();
  for (const email of emails) {
    for (const balance of sandbox.admin.balances(email)) {
      const amount = new Exact(balance.free).plus(balance.locked);
      total.set(balance.asset, (total.get(balance.asset) ?? new Exact(0)).plus(amount));
    }
  }
  return total;
}

describe('every profile together', () => {
  it('values each profile at its own exchange’s prices, in USDT and in BTC, names who is left out, and completes inactive profiles’ P&L', async () => {
    const { s, other, prices, together, marketClients, setCurrency } = await twoExchanges();
    const first = held(s.sandbox, [PARENT, SAVINGS]);
    const second = held(other, [PARENT]);
    expect(Object.fromEntries([...first].map(([a, q]) => [a, q.toFixed()]))).toEqual({
      btc: '1.5',
      eth: '2.5',
      usdt: '1334.56',
    });

    const priceIn = {
      usdt: {
        first: { btc: prices.first.btcusdt, eth: prices.first.ethusdt, usdt: new Exact(1) },
        second: { btc: prices.second.btcusdt, xrp: prices.second.xrpusdt, usdt: new Exact(1) },
      },
      btc: {
        // ETH has a direct market in BTC; USDT is the inverse of BTCUSDT; XRP is bridged through
        // USDT (XRPUSDT / BTCUSDT, one division).
        first: {
          btc: new Exact(1),
          eth: prices.first.ethbtc,
          usdt: quotient(1, prices.first.btcusdt),
        },
        second: {
          btc: new Exact(1),
          xrp: quotient(prices.second.xrpusdt, prices.second.btcusdt),
          usdt: quotient(1, prices.second.btcusdt),
        },
      },
    } as const;

    for (const currency of ['usdt', 'btc'] as const) {
      setCurrency(currency);
      const view = await together.summary({});
      const value = (holdings: Map<string, Decimal>, book: Record<string, Decimal>) =>
        [...holdings].reduce(
          (sum, [asset, qty]) => sum.plus(qty.times(book[asset]!)),
          new Exact(0),
        );
      const firstValue = value(first, priceIn[currency].first);
      const secondValue = value(second, priceIn[currency].second);
      const total = firstValue.plus(secondValue);

      expect(view.currency).toBe(currency);
      expect(view.total, currency).toBe(total.toFixed());
      expect(view.profiles.map((p) => [p.profileId, p.value, p.share])).toEqual([
        [PROFILE, firstValue.toFixed(), share(firstValue, total)],
        [SECOND, secondValue.toFixed(), share(secondValue, total)],
      ]);
      expect(view.profiles[0]!.accounts).toEqual(['main', SAVINGS]);
      expect(view.profiles[0]!.covers).toBe(
        'Every account together (main account and 1 sub-account)',
      );
      expect(view.leftOut).toEqual([
        {
          profileId: NEVER_READ,
          name: 'Never read',
          reason:
            'Its balances were never read from its exchange: switch to it once while the exchange answers.',
        },
        {
          profileId: DEMO,
          name: 'Demo',
          reason: 'A demo profile: its practice exchange holds no real funds.',
        },
      ]);
      expect(view.includes).toContain('left out: Never read, Demo');
      expect(view.unpriced).toEqual([]);

      // The allocation: each asset's quantity over both exchanges, valued at each one's price.
      const expected = new Map<string, { quantity: Decimal; value: Decimal }>();
      for (const [holdings, book] of [
        [first, priceIn[currency].first],
        [second, priceIn[currency].second],
      ] as const) {
        for (const [asset, qty] of holdings) {
          const row = expected.get(asset) ?? { quantity: new Exact(0), value: new Exact(0) };
          expected.set(asset, {
            quantity: row.quantity.plus(qty),
            value: row.value.plus(qty.times((book as Record<string, Decimal>)[asset]!)),
          });
        }
      }
      expect(view.allocation).toEqual(
        [...expected]
          .sort(([a, x], [b, y]) => y.value.comparedTo(x.value) || a.localeCompare(b))
          .map(([asset, row]) => ({
            asset,
            quantity: row.quantity.toFixed(),
            value: row.value.toFixed(),
            share: share(row.value, total),
          })),
      );
      // The P&L card's figures are the two profiles' figures added up.
      expect(view.totals.value).toBe(view.total);

      // The value history of the whole ends at the total now.
      const history = await together.history({ range: 'day' });
      expect(history.profiles.map((p) => p.profileId)).toEqual([PROFILE, SECOND]);
      expect(history.leftOut.map((p) => p.profileId)).toEqual([NEVER_READ, DEMO]);
      expect(history.points.at(-1)?.value).toBe(total.toFixed());
    }

    // Neither profile is active, and their past prices are not kept: the P&L waits for them,
    // named per profile, until the candles are fetched over each exchange's public interface
    // (a client without a key), with no profile made active.
    setCurrency('usdt');
    const waiting = await together.summary({ range: 'week' });
    expect(waiting.computing).toEqual([
      { profileId: PROFILE, name: 'Test', trades: false, prices: ['btcusdt', 'ethusdt'] },
      { profileId: SECOND, name: 'Second exchange', trades: false, prices: ['btcusdt', 'xrpusdt'] },
    ]);
    for (const [profileId, sandbox] of [
      [PROFILE, s.sandbox],
      [SECOND, other],
    ] as const) {
      marketClients.set(
        profileId,
        new ExchangeClient({ baseUrl: sandbox.baseUrl, rateLimits: false }),
      );
    }
    let done = waiting;
    try {
      await until(
        () => done.computing === null,
        'the candles of both profiles',
        20_000,
        async () => {
          done = await together.summary({ range: 'week' });
        },
      );
    } finally {
      await Promise.all([...marketClients.values()].map((client) => client.close()));
    }
    // Each figure of the card is the two profiles' added up.
    const sum = (pick: (p: (typeof done.profiles)[number]) => string) =>
      done.profiles.reduce((acc, p) => acc.plus(pick(p)), new Exact(0)).toFixed();
    expect(done.totals.value).toBe(done.total);
    for (const field of ['costBasis', 'realizedPnl', 'unrealizedPnl', 'feesPaid'] as const) {
      expect(done.totals[field], field).toBe(sum((p) => p.totals[field]));
    }
    for (const field of ['realizedPnl', 'feesPaid', 'unrealizedChange', 'pnl'] as const) {
      expect(done.range?.[field], field).toBe(sum((p) => p.range![field]));
    }
    expect(new Exact(done.totals.costBasis).gt(0)).toBe(true);
  });
});

/** Polls `step` (real time, 25 ms apart) until `condition` holds; fails after `limitMs`. */
async function until(
  condition: () => boolean,
  what: string,
  limitMs: number,
  step: () => Promise<void>,
): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
    await step();
  }
}
