/**
 * Deposit addresses wait for sync's one-a-minute budget. The budget says when a queued call will
 * start (from its real next free slot), a queued call can be canceled, and a canceled call never
 * reaches the exchange; addresses fetched before are served at once meanwhile.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/core/clock';
import type { CoinInfo } from '../../electron/exchange';
import { SyncEngine } from '../../electron/sync';
import { PacingBudget, RequestCanceledError } from '../../electron/sync/pacing';
import { PROFILE, scenario, until, type Scenario } from './helpers';

const MINUTE = 60_000;

let current: Scenario | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

describe('PacingBudget queue', () => {
  it('tells when each queued call starts, and a canceled one is never granted', async () => {
    const clock = new ManualClock(1_000_000);
    const budget = new PacingBudget(clock);
    const first = budget.queue('depositAddress');
    expect(first.startsAt()).toBe(1_000_000);
    const releaseFirst = await first.granted;
    expect(first.startsAt()).toBe(1_000_000);

    const second = budget.queue('depositAddress');
    const third = budget.queue('depositAddress');
    // The first call is still in flight: its slot frees one period after its answer.
    clock.advance(2_000);
    releaseFirst();
    expect(second.startsAt()).toBe(1_002_000 + MINUTE);
    expect(third.startsAt()).toBe(1_002_000 + 2 * MINUTE);

    // Canceling the second moves the third up to the second's slot.
    let secondOutcome: unknown;
    second.granted.then(
      () => (secondOutcome = 'granted'),
      (error: unknown) => (secondOutcome = error),
    );
    expect(second.cancel()).toBe(true);
    await Promise.resolve();
    expect(secondOutcome).toBeInstanceOf(RequestCanceledError);
    expect(third.startsAt()).toBe(1_002_000 + MINUTE);
    expect(budget.waitMs('depositAddress')).toBeGreaterThan(0);

    let thirdGranted = false;
    void third.granted.then(() => (thirdGranted = true));
    clock.advance(MINUTE - 1);
    await Promise.resolve();
    expect(thirdGranted).toBe(false);
    clock.advance(1);
    await until(() => thirdGranted, 'the third call to be granted');
    // A granted call cannot be canceled any more: it is on its way to the exchange.
    expect(third.cancel()).toBe(false);
    budget.stop();
  });
});

describe('SyncEngine deposit address queue', () => {
  it('lists the queued request with its start, cancels it before it reaches the exchange', async () => {
    current = await scenario();
    const clock = new ManualClock(Date.now());
    const client = current.client();
    const coins: CoinInfo[] = await client.wallet.coins();
    const usable = coins
      .map((c) => ({ coin: c.coin, network: c.networkList.find((n) => n.depositEnable)?.network }))
      .filter((c): c is { coin: string; network: string } => c.network !== undefined);
    const [a, b] = usable;
    const asked: string[] = [];
    const original = client.wallet.depositAddress.bind(client.wallet);
    client.wallet.depositAddress = async (p) => {
      asked.push(p.coin);
      return original(p);
    };
    const engine = new SyncEngine({
      store: current.store,
      client,
      profileId: PROFILE,
      emit: current.emit,
      clock,
    });
    await engine.refresh('coins');

    const first = await engine.depositAddress(a!.coin, a!.network);
    expect(first.fromCache).toBe(false);
    const answeredAt = clock.now();

    const waiting = engine.depositAddress(b!.coin, b!.network);
    const outcome = waiting.then(
      () => 'fetched',
      (error: unknown) => error,
    );
    await until(() => engine.pendingDepositAddresses().length === 1, 'the queued request');
    const [pending] = engine.pendingDepositAddresses();
    expect(pending).toMatchObject({ coin: b!.coin, network: b!.network, state: 'queued' });
    expect(pending!.startsAt).toBeGreaterThanOrEqual(answeredAt + MINUTE);
    expect(pending!.startsAt).toBeLessThanOrEqual(answeredAt + MINUTE + 100);
    const changed = current.events.filter((e) => e.event === 'data.changed').length;

    // What was fetched before is served at once, from the cache, while the other one waits.
    expect(await engine.depositAddress(a!.coin, a!.network)).toEqual({ ...first, fromCache: true });

    expect(engine.cancelDepositAddress(b!.coin, b!.network)).toBe(true);
    // Gone from what waits the moment the cancel is answered, before its waiter has heard.
    expect(engine.pendingDepositAddresses()).toEqual([]);
    expect(await outcome).toBeInstanceOf(RequestCanceledError);
    // The screen hears of it.
    expect(current.events.filter((e) => e.event === 'data.changed').length).toBeGreaterThan(
      changed,
    );
    // Past the slot it would have used, nothing was asked of the exchange.
    clock.advance(2 * MINUTE);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toEqual([a!.coin]);
    expect(engine.cancelDepositAddress(b!.coin, b!.network)).toBe(false);
    await engine.stop();
  });
});
