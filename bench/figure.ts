/**
 * One printed figure of `npm run bench`. `baseline` is a physical limit measured in the same run
 * (bare undici on loopback, bare SQLite inserts, ...); `ratio` is value / baseline where that
 * means something; `ok` says whether the target is met.
 */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline: number | null;
  ratio: number | null;
  target: string;
  ok: boolean;
}

export interface Bench {
  name: string;
  run(): Promise<Figure[]>;
}

export function figure(input: {
  name: string;
  value: number;
  unit: string;
  baseline?: number | null;
  target: string;
  ok: boolean;
}): Figure {
  const baseline = input.baseline ?? null;
  return {
    name: input.name,
    value: round(input.value),
    unit: input.unit,
    baseline: baseline === null ? null : round(baseline),
    ratio: baseline ? round(input.value / baseline, 3) : null,
    target: input.target,
    ok: input.ok,
  };
}

function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Runs fn repeatedly for about `ms` and returns operations per second. */
export async function opsPerSecond(
  fn: () => Promise<unknown> | unknown,
  ms = 2000,
): Promise<number> {
  const start = performance.now();
  let count = 0;
  while (performance.now() - start < ms) {
    await fn();
    count++;
  }
  return (count * 1000) / (performance.now() - start);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}
