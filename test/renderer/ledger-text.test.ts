/**
 * An inferred entry's window: bounded by the movement that needed it when there is one (it must
 * have happened before that withdrawal), else by the observation that closes its interval.
 */
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../shared/format';
import { inferredWindow } from '../../renderer/src/lib/ledger-text';

const FROM = Date.UTC(2026, 0, 5, 8);
const WITHDRAWN = Date.UTC(2026, 2, 1, 9, 30);
const OBSERVED = Date.UTC(2026, 10, 26, 8);

describe('inferredWindow', () => {
  it('ends before the withdrawal that needed the credit, not at the later observation', () => {
    const text = inferredWindow({
      from: FROM,
      to: OBSERVED,
      before: { kind: 'withdrawal', time: WITHDRAWN },
    });
    expect(text).toBe(
      `Happened between ${formatDateTime(FROM)} and before the withdrawal of ${formatDateTime(WITHDRAWN)}`,
    );
    expect(text).not.toContain(formatDateTime(OBSERVED));
  });

  it('ends at the observation when no movement bounds it', () => {
    expect(inferredWindow({ from: FROM, to: OBSERVED, before: null })).toBe(
      `Happened between ${formatDateTime(FROM)} and ${formatDateTime(OBSERVED)}`,
    );
  });
});
