/**
 * The renderer's data layer (renderer/src/lib/query.ts) over a real TanStack QueryClient: keys per
 * bridge method and input, change events marking exactly the answers they feed as stale, retries
 * for transient errors only, an identical answer keeping its object, and a prefetched answer that
 * a change overtook being read again by the screen that takes it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { namedChange } from '../../electron/api/changes';
import {
  bridgeKey,
  callBridge,
  createQueryClient,
  isTransient,
  shouldRetry,
  watchDataChanges,
} from '../../renderer/src/lib/query';
import { gate } from './support/component';

type Listener = (payload: unknown) => void;

/** A window.spotfolio with a few methods whose answers the test sets, and events it emits. */
function fakeBridge() {
  const listeners = new Map<string, Set<Listener>>();
  const calls: string[] = [];
  const answers = {
    /** The P&L card's answer: given once the test lets it through (`ledger()` is awaited). */
    ledger: async () => ({ at: 1 }),
    funds: () => ({ rows: [{ asset: 'btc', free: '1.5' }] }),
    open: () => [],
    rest: 'ok' as 'ok' | 'offline',
  };
  return {
    calls,
    answers,
    app: {
      status: async () => {
        calls.push('app.status');
        return { rest: { state: answers.rest, since: 1 } };
      },
    },
    market: {
      tickers: async () => {
        calls.push('market.tickers');
        return [];
      },
    },
    funds: {
      list: async () => {
        calls.push('funds.list');
        return answers.funds();
      },
    },
    ledger: {
      summary: async () => {
        calls.push('ledger.summary');
        return answers.ledger();
      },
    },
    orders: {
      open: async (input: unknown) => {
        calls.push(`orders.open ${JSON.stringify(input)}`);
        return answers.open();
      },
    },
    on(event: string, listener: Listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => void set.delete(listener);
    },
    emit(event: string, payload: unknown) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
  };
}

let fake: ReturnType<typeof fakeBridge>;
let client: QueryClient;
let stop: () => void;
const host = globalThis as unknown as { window?: { spotfolio: unknown } };
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

beforeEach(() => {
  fake = fakeBridge();
  host.window = { spotfolio: fake };
  client = createQueryClient();
  stop = watchDataChanges(client);
});

afterEach(() => {
  stop();
  client.clear();
  delete host.window;
});

function observe(
  method: 'funds.list' | 'orders.open' | 'app.status' | 'market.tickers' | 'ledger.summary',
  input?: object,
) {
  const observer = new QueryObserver(client, {
    queryKey: bridgeKey(method, input as never),
    queryFn: () => callBridge(method, input as never),
  });
  const results: unknown[] = [];
  const unsubscribe = observer.subscribe((result) => {
    if (result.data !== undefined) results.push(result.data);
  });
  return { observer, results, unsubscribe };
}

/**
 * The P&L card and the funds on screen, the others of a change waited for at most `firstWait`,
 * the card answering as `ledger` says; a change of the funds (which feed both) sent, and only the
 * card asked so far.
 */
async function cardAndFundsChanged(firstWait: number, ledger: () => Promise<unknown>) {
  stop();
  stop = watchDataChanges(client, {}, 250, firstWait);
  const card = observe('ledger.summary');
  const funds = observe('funds.list');
  await settle();
  fake.calls.length = 0;
  fake.answers.ledger = ledger as typeof fake.answers.ledger;
  fake.emit('data.changed', namedChange({ profileId: 'p', kinds: ['funds'] }));
  await settle();
  expect(fake.calls).toEqual(['ledger.summary']);
  return { card, funds };
}

describe('query keys and calls', () => {
  it('keys a call by its method and input, and calls the method of that name', async () => {
    expect(bridgeKey('funds.list')).toEqual(['funds.list', {}]);
    expect(bridgeKey('orders.open', { symbol: 'btcusdt' })).toEqual([
      'orders.open',
      { symbol: 'btcusdt' },
    ]);
    await callBridge('orders.open', { symbol: 'btcusdt' });
    expect(fake.calls).toEqual(['orders.open {"symbol":"btcusdt"}']);
  });
});

describe('change events (named by the main process)', () => {
  it('read the answers on screen again, and leave the others alone', async () => {
    const funds = observe('funds.list');
    const orders = observe('orders.open', {});
    await settle();
    expect(fake.calls).toEqual(['funds.list', 'orders.open {}']);

    fake.emit('data.changed', namedChange({ profileId: 'p', kinds: ['funds'] }));
    await settle();
    expect(fake.calls).toEqual(['funds.list', 'orders.open {}', 'funds.list']);
    expect(client.getQueryState(bridgeKey('orders.open', {}))?.isInvalidated).toBe(false);
    funds.unsubscribe();
    orders.unsubscribe();
  });

  it('never cancel a call in flight: changes meanwhile ask for one more call after it', async () => {
    let release: () => void = () => undefined;
    let answered = 0;
    fake.answers.funds = () => ({ rows: [{ asset: 'btc', free: String(++answered) }] });
    const slowList = fake.funds.list;
    fake.funds.list = async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return slowList();
    };
    const funds = observe('funds.list');
    await settle();
    for (let i = 0; i < 5; i++)
      fake.emit('data.changed', namedChange({ profileId: 'p', kinds: ['prices'] }));
    await settle();
    expect(fake.calls).toEqual([]);
    release();
    await settle();
    // The first call answered (it was not cancelled), and exactly one more followed it.
    expect(funds.results[0]).toEqual({ rows: [{ asset: 'btc', free: '1' }] });
    release();
    await settle();
    expect(fake.calls).toEqual(['funds.list', 'funds.list']);
    expect(funds.results.at(-1)).toEqual({ rows: [{ asset: 'btc', free: '2' }] });
    funds.unsubscribe();
  });

  it('read a paced answer at once after a quiet spell, then with the first change after its pace, or a spacing later when none comes', async () => {
    stop();
    // Paced at 200 ms; a change waited for 200 ms more (the live stream's spacing, here wider).
    stop = watchDataChanges(client, { 'funds.list': 200 }, 200);
    const funds = observe('funds.list');
    await settle();
    fake.calls.length = 0;
    const change = () =>
      fake.emit('data.changed', namedChange({ profileId: 'p', kinds: ['funds'] }));
    change();
    await settle();
    expect(fake.calls).toEqual(['funds.list']);
    for (let i = 0; i < 5; i++) change();
    await settle();
    expect(fake.calls).toEqual(['funds.list']);
    // Its pace is over, but no change came yet: it waits for one.
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(fake.calls).toEqual(['funds.list']);
    change();
    await settle();
    expect(fake.calls).toEqual(['funds.list', 'funds.list']);
    // Changes within its pace, then none: read once, a spacing after the pace ends.
    change();
    change();
    await settle();
    expect(fake.calls).toEqual(['funds.list', 'funds.list']);
    await vi.waitFor(() => expect(fake.calls).toEqual(['funds.list', 'funds.list', 'funds.list']), {
      timeout: 2000,
    });
    // A change of the settings is read at once, paced or not.
    fake.emit('data.changed', namedChange({ profileId: 'p', kinds: ['settings'] }));
    await settle();
    expect(fake.calls).toEqual(['funds.list', 'funds.list', 'funds.list', 'funds.list']);
    funds.unsubscribe();
  });

  it("ask the P&L card's answer first, and the others of the change once it is in", async () => {
    const answered = gate();
    const { card, funds } = await cardAndFundsChanged(10_000, () =>
      answered.passed.then(() => ({ at: 2 })),
    );
    answered.open();
    await vi.waitFor(() => expect(fake.calls).toEqual(['ledger.summary', 'funds.list']));
    expect(card.results.at(-1)).toEqual({ at: 2 });
    card.unsubscribe();
    funds.unsubscribe();
  });

  it("ask the others of a change a while after the card's answer at the latest", async () => {
    // The card's answer never comes (a long build): the funds are asked all the same.
    const { card, funds } = await cardAndFundsChanged(50, () => new Promise(() => undefined));
    await vi.waitFor(() => expect(fake.calls).toEqual(['ledger.summary', 'funds.list']));
    card.unsubscribe();
    funds.unsubscribe();
  });

  it('mark a prefetched answer a change overtook, so the screen that takes it reads again', async () => {
    await client.prefetchQuery({
      queryKey: bridgeKey('funds.list'),
      queryFn: () => callBridge('funds.list'),
    });
    fake.emit('data.changed', namedChange({ profileId: 'p', kinds: ['prices'] }));
    expect(client.getQueryState(bridgeKey('funds.list'))?.isInvalidated).toBe(true);
    fake.answers.funds = () => ({ rows: [{ asset: 'btc', free: '2' }] });
    const funds = observe('funds.list');
    // The prefetched answer is shown at once, then the newer one replaces it.
    expect(funds.observer.getCurrentResult().data).toEqual({
      rows: [{ asset: 'btc', free: '1.5' }],
    });
    await settle();
    expect(fake.calls).toEqual(['funds.list', 'funds.list']);
    expect(funds.results.at(-1)).toEqual({ rows: [{ asset: 'btc', free: '2' }] });
    funds.unsubscribe();
  });
});

describe('the exchange coming back', () => {
  it('reads again what the cache served once REST answers again, stream or no stream', async () => {
    fake.answers.rest = 'offline';
    const status = observe('app.status');
    const tickers = observe('market.tickers');
    await vi.waitFor(() => expect(fake.calls).toEqual(['app.status', 'market.tickers']));
    // Still offline: nothing to read again.
    fake.emit('data.changed', namedChange({ profileId: 'p', kinds: ['status'] }));
    await vi.waitFor(() => expect(fake.calls.filter((c) => c === 'app.status')).toHaveLength(2));
    expect(fake.calls.filter((c) => c === 'market.tickers')).toHaveLength(1);
    // REST answers: the tickers served from the cache meanwhile are read again.
    fake.answers.rest = 'ok';
    fake.emit('data.changed', namedChange({ profileId: 'p', kinds: ['status'] }));
    await vi.waitFor(() =>
      expect(fake.calls.filter((c) => c === 'market.tickers')).toHaveLength(2),
    );
    status.unsubscribe();
    tickers.unsubscribe();
  });
});

describe('answers', () => {
  it('keep their object when the same answer comes again', async () => {
    const funds = observe('funds.list');
    await settle();
    const first = funds.observer.getCurrentResult().data;
    fake.emit('data.changed', namedChange({ profileId: 'p', kinds: ['funds'] }));
    await settle();
    expect(fake.calls).toEqual(['funds.list', 'funds.list']);
    expect(funds.observer.getCurrentResult().data).toBe(first);
    funds.unsubscribe();
  });
});

describe('retries', () => {
  it('are made for transient failures only, and a bounded number of times', () => {
    const failure = (kind: string) => ({ kind, message: 'failed' });
    expect(isTransient(failure('network'))).toBe(true);
    expect(isTransient(failure('server'))).toBe(true);
    for (const kind of ['invalid-input', 'permission', 'auth', 'rate-limited', 'no-profile']) {
      expect(shouldRetry(0, failure(kind))).toBe(false);
    }
    expect(isTransient(new Error('plain'))).toBe(false);
    expect(shouldRetry(0, failure('network'))).toBe(true);
    expect(shouldRetry(1, failure('network'))).toBe(true);
    expect(shouldRetry(2, failure('network'))).toBe(false);
  });
});
