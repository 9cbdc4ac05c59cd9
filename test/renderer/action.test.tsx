// @vitest-environment jsdom
/**
 * useAction (renderer/src/lib/query.ts), a change through TanStack Query's useMutation: two runs
 * started in one moment (a double click, Enter then a click) send once; a failure is its `error`,
 * never thrown, and the next run clears it; a reset while the call is on its way keeps its state.
 */
import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createQueryClient, useAction } from '../../renderer/src/lib/query';
import { gate } from './support/component';

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>;
}

describe('useAction', () => {
  it('sends once for two runs started before the first answer, and reports pending meanwhile', async () => {
    const sent: string[] = [];
    const answered = gate();
    const done: string[] = [];
    const { result } = renderHook(
      () =>
        useAction(
          async (input: string) => {
            sent.push(input);
            await answered.passed;
            return `${input} done`;
          },
          { onSuccess: (answer) => void done.push(answer) },
        ),
      { wrapper },
    );
    let first!: Promise<void>;
    let second!: Promise<void>;
    act(() => {
      first = result.current.run('a');
      second = result.current.run('b');
    });
    await waitFor(() => expect(result.current.pending).toBe(true));
    expect(result.current.input).toBe('a');
    // A reset while it is on its way keeps it pending: its button stays held.
    await act(async () => result.current.reset());
    expect(result.current.pending).toBe(true);
    answered.open();
    await act(() => Promise.all([first, second]));
    expect(sent).toEqual(['a']);
    expect(done).toEqual(['a done']);
    expect(result.current.pending).toBe(false);
    expect(result.current.error).toBeUndefined();
  });

  it('keeps a failure as its error until the next run or a reset', async () => {
    let fail = true;
    const failures: unknown[] = [];
    const { result } = renderHook(
      () =>
        useAction(
          async () => {
            if (fail) throw new Error('refused');
            return 'ok';
          },
          { onError: (error) => void failures.push(error) },
        ),
      { wrapper },
    );
    await act(() => result.current.run());
    expect(result.current.error).toMatchObject({ message: 'refused' });
    expect(failures).toHaveLength(1);
    await act(async () => result.current.reset());
    expect(result.current.error).toBeUndefined();
    await act(() => result.current.run());
    expect(result.current.error).toBeDefined();
    fail = false;
    await act(() => result.current.run());
    expect(result.current.error).toBeUndefined();
    expect(failures).toHaveLength(2);
  });
});
