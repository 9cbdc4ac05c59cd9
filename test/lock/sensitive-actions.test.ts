/**
 * Which bridge calls ask for the lock password again (lock/sensitive-actions.ts), with the
 * profiles, the settings, the session and the order desk's judgement given as plain objects.
 */
import { describe, expect, it } from 'vitest';
import type { MethodParsedInput } from '../../shared/contract';
import { SensitiveActions } from '../../electron/lock/sensitive-actions';
import { DEFAULT_SETTINGS } from '../../electron/settings/stored';
import type { ProfileRow } from '../../electron/store/types';

const PROFILE: ProfileRow = {
  id: 'p1',
  name: 'Main',
  baseUrl: 'https://api.example.com',
  streamUrl: 'wss://stream.example.com',
  apiKeyMasked: 'AbCd…wxyz',
  canTrade: true,
  canWithdraw: false,
  isDemo: false,
  createdAt: 0,
};

const ORDER: MethodParsedInput<'orders.place'> = {
  symbol: 'btcusdt',
  side: 'buy',
  type: 'limit',
  price: '60000',
  quantity: '1',
};

function actions(options: { session: { id: string } | null; above: boolean }) {
  const asked: { id: string }[] = [];
  const sensitive = new SensitiveActions<{ id: string }>({
    profiles: { get: (id) => (id === PROFILE.id ? PROFILE : null) },
    settings: () => ({ ...DEFAULT_SETTINGS, confirmOrdersAbove: '1000' }),
    sessions: { current: () => options.session },
    orders: {
      aboveThreshold: async (session) => {
        asked.push(session);
        return options.above;
      },
    },
  });
  return { sensitive, asked };
}

describe('SensitiveActions', () => {
  it('names moving funds, re-attaching a key, removing a profile and exporting a report', async () => {
    const { sensitive } = actions({ session: null, above: false });
    expect(await sensitive.of('subAccounts.transfer', {})).toBe('move funds');
    expect(await sensitive.of('journal.finish', {})).toBe('move funds');
    expect(await sensitive.of('profiles.reattachKey', {})).toBe('re-attach a key');
    expect(await sensitive.of('profiles.remove', { id: 'p1' })).toBe('remove a profile');
    for (const method of ['export.csv', 'ledger.taxReport', 'ledger.koinlyExport'] as const) {
      expect(await sensitive.of(method, {})).toBe('export a report');
    }
    expect(await sensitive.of('funds.list', undefined)).toBeNull();
  });

  it("asks for a profile's update only when it moves the profile to other addresses", async () => {
    const { sensitive } = actions({ session: null, above: false });
    const update = {
      id: 'p1',
      name: 'Renamed',
      baseUrl: PROFILE.baseUrl,
      streamUrl: PROFILE.streamUrl,
    };
    expect(await sensitive.of('profiles.update', update)).toBeNull();
    expect(
      await sensitive.of('profiles.update', { ...update, baseUrl: 'https://elsewhere.example' }),
    ).toBe('change the addresses of a profile');
    expect(
      await sensitive.of('profiles.update', { ...update, streamUrl: 'wss://elsewhere.example' }),
    ).toBe('change the addresses of a profile');
    expect(await sensitive.of('profiles.update', { ...update, id: 'gone' })).toBeNull();
  });

  it('asks when the order value that asks for the password is raised, not lowered or kept', async () => {
    const { sensitive } = actions({ session: null, above: false });
    expect(await sensitive.of('settings.update', { confirmOrdersAbove: '1000.01' })).toBe(
      'raise the order value that asks for the password',
    );
    expect(await sensitive.of('settings.update', { confirmOrdersAbove: '1000' })).toBeNull();
    expect(await sensitive.of('settings.update', { confirmOrdersAbove: '5' })).toBeNull();
    expect(await sensitive.of('settings.update', { theme: 'dark' })).toBeNull();
  });

  it("asks for an order above the threshold, as the order desk judges it in the session's terms", async () => {
    const session = { id: 's1' };
    const above = actions({ session, above: true });
    expect(await above.sensitive.of('orders.place', ORDER)).toBe(
      'place an order above the value set in Settings',
    );
    expect(above.asked).toEqual([session]);
    const below = actions({ session, above: false });
    expect(await below.sensitive.of('orders.place', ORDER)).toBeNull();
    // Without a session orders.place refuses by itself: nothing is judged, nothing asked.
    const none = actions({ session: null, above: true });
    expect(await none.sensitive.of('orders.place', ORDER)).toBeNull();
    expect(none.asked).toEqual([]);
  });
});
