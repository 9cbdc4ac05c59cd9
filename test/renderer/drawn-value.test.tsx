// @vitest-environment jsdom
/**
 * useDrawnValue (renderer/src/lib/query.ts), what a chart draws: its first data at once, new data
 * only once no answer is on its way (a live change asks several at once, and redrawing a chart
 * between them held the P&L card's answer), and at the latest CHART_HOLD_MS after new data came
 * when answers never stop arriving, however often the data changes meanwhile.
 */
import type { ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHART_HOLD_MS, createQueryClient, useDrawnValue } from '../../renderer/src/lib/query';
import { gate } from './support/component';

let client: QueryClient;

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** An answer on its way until the returned function lets it arrive. */
async function answerOnItsWay(key: string): Promise<() => Promise<void>> {
  const answered = gate();
  const before = client.isFetching();
  let fetched!: Promise<unknown>;
  act(() => {
    // One left on its way is cancelled when the test clears the client: not a failure here.
    fetched = client
      .fetchQuery({ queryKey: [key], queryFn: () => answered.passed.then(() => 1) })
      .catch(() => undefined);
  });
  expect(client.isFetching()).toBe(before + 1);
  return async () => {
    answered.open();
    await act(() => fetched);
  };
}

/** Lets `ms` of the page's clock pass. */
function pass(ms: number): void {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

function drawing(first: number[]) {
  return renderHook(({ value }: { value: number[] }) => useDrawnValue(value), {
    wrapper,
    initialProps: { value: first },
  });
}

describe('useDrawnValue', () => {
  beforeEach(() => {
    client = createQueryClient();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
    client.clear();
  });

  it('draws the first data at once, and new data at once while no answer is on its way', () => {
    const first = [1, 2];
    const { result, rerender } = drawing(first);
    expect(result.current).toBe(first);
    const second = [3, 4];
    rerender({ value: second });
    expect(result.current).toBe(second);
  });

  it('holds new data while an answer is on its way and draws it when the last one arrives', async () => {
    const first = [1];
    const { result, rerender } = drawing(first);
    const arriveA = await answerOnItsWay('a');
    const arriveB = await answerOnItsWay('b');
    const second = [2];
    rerender({ value: second });
    expect(result.current).toBe(first);
    const third = [3];
    rerender({ value: third });
    expect(result.current).toBe(first);
    await arriveA();
    expect(client.isFetching()).toBe(1);
    expect(result.current).toBe(first);
    await arriveB();
    expect(result.current).toBe(third);
  });

  it('draws the newest data CHART_HOLD_MS after new data first came, when answers keep coming', async () => {
    const first = [0];
    const { result, rerender } = drawing(first);
    await answerOnItsWay('never');
    // New data every tenth of the hold: the wait runs from the first, not from the latest.
    let latest = first;
    for (let step = 1; step < 10; step++) {
      latest = [step];
      rerender({ value: latest });
      pass(CHART_HOLD_MS / 10);
      expect(result.current).toBe(first);
    }
    latest = [10];
    rerender({ value: latest });
    pass(CHART_HOLD_MS / 10);
    expect(client.isFetching()).toBe(1);
    expect(result.current).toBe(latest);
    // Drawn; the next new data waits its own full hold.
    const next = [11];
    rerender({ value: next });
    pass(CHART_HOLD_MS - 1);
    expect(result.current).toBe(latest);
    pass(1);
    expect(result.current).toBe(next);
  });
});
