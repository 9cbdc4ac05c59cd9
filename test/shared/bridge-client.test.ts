import { describe, expect, it } from 'vitest';
import {
  BridgeCallError,
  createBridge,
  utf8Length,
  type BridgeTransport,
} from '../../shared/bridge-client';
import { methodNames, type CallOutcome } from '../../shared/contract';

function recordingTransport(answer: (method: string, input: unknown) => CallOutcome<unknown>) {
  const calls: { method: string; input: unknown }[] = [];
  const subscribers = new Set<(event: string, payload: unknown) => void>();
  const transport: BridgeTransport = {
    call: async (method, input) => {
      calls.push({ method, input });
      return answer(method, input);
    },
    subscribe(listener) {
      subscribers.add(listener);
      return () => void subscribers.delete(listener);
    },
  };
  return {
    transport,
    calls,
    subscribers,
    emit: (event: string, payload: unknown) => subscribers.forEach((s) => s(event, payload)),
  };
}

describe('createBridge', () => {
  it('has one named function per contract method and `on`, nothing else', () => {
    const bridge = createBridge(recordingTransport(() => ({ ok: true, value: null })).transport);
    const names = Object.entries(bridge).flatMap(([key, value]) =>
      typeof value === 'function' ? [key] : Object.keys(value as object).map((m) => `${key}.${m}`),
    );
    expect(names.sort()).toEqual([...methodNames, 'on'].sort());
  });

  it('sends the method name and input, and an empty object when called without one', async () => {
    const fake = recordingTransport((method) => ({ ok: true, value: method }));
    const bridge = createBridge(fake.transport);
    expect(await bridge.funds.list()).toBe('funds.list');
    expect(await bridge.market.klines({ symbol: 'btcusdt', interval: '1h' })).toBe('market.klines');
    expect(fake.calls).toEqual([
      { method: 'funds.list', input: {} },
      { method: 'market.klines', input: { symbol: 'btcusdt', interval: '1h' } },
    ]);
  });

  it('rejects a failed call with a BridgeCallError carrying kind, code and field', async () => {
    const fake = recordingTransport(() => ({
      ok: false,
      error: { kind: 'insufficient-balance', message: 'Not enough', code: -2010, field: 'amount' },
    }));
    const error = await createBridge(fake.transport)
      .subAccounts.transfer({ asset: 'btc', amount: '1', fromEmail: 'a@x.io', toEmail: 'b@x.io' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeCallError);
    expect(error).toMatchObject({
      kind: 'insufficient-balance',
      message: 'Not enough',
      code: -2010,
      field: 'amount',
    });
  });

  it('rejects with whatever the rejection option builds (the preload uses plain objects)', async () => {
    const fake = recordingTransport(() => ({
      ok: false,
      error: { kind: 'auth', message: 'Bad key' },
    }));
    const bridge = createBridge(fake.transport, { rejection: (p) => ({ plain: true, ...p }) });
    await expect(bridge.account.info()).rejects.toEqual({
      plain: true,
      kind: 'auth',
      message: 'Bad key',
    });
  });

  it('delivers only the named event, payload only, with one transport subscription', () => {
    const fake = recordingTransport(() => ({ ok: true, value: null }));
    const bridge = createBridge(fake.transport);
    const seen: unknown[] = [];
    const offA = bridge.on('data.changed', (payload) => seen.push(['a', payload]));
    const offB = bridge.on('notification', (payload) => seen.push(['b', payload]));
    expect(fake.subscribers.size).toBe(1);
    fake.emit('data.changed', { profileId: null, kinds: [] });
    fake.emit('market.depth', { symbol: 'x' });
    expect(seen).toEqual([['a', { profileId: null, kinds: [] }]]);
    offA();
    offA();
    fake.emit('data.changed', { profileId: null, kinds: [] });
    expect(seen).toHaveLength(1);
    offB();
    expect(fake.subscribers.size).toBe(0);
  });

  it('refuses an unknown event name', () => {
    const bridge = createBridge(recordingTransport(() => ({ ok: true, value: null })).transport);
    expect(() => bridge.on('nope' as 'notification', () => undefined)).toThrow('Unknown event');
  });
});

describe('utf8Length', () => {
  it('matches Buffer.byteLength for ASCII, accents, CJK and emoji', () => {
    for (const text of ['', 'abc', 'é', '€uro', '漢字', '😀 ok', 'a\ud800b']) {
      expect(utf8Length(text), text).toBe(Buffer.byteLength(text, 'utf8'));
    }
  });
});
