/**
 * Sync's own request budget for the scarce wallet endpoints. The client already queues every call
 * within each endpoint's limit; this budget sits in front of it so background work never fills
 * that queue: coins and withdraw history share 5 calls a minute here (the user's own actions,
 * like a deposit address, must not wait behind a backfill), deposit addresses 1 a minute.
 * A call holds a slot from its start until one period after its answer.
 */
import type { Clock, TimerHandle } from '../core/clock';
import type { EndpointName } from '../exchange';

export interface BudgetLimit {
  count: number;
  periodMs: number;
}

/** Endpoints that share a budget name the same group. */
export const BUDGET_GROUPS: Partial<Record<EndpointName, { group: string; limit: BudgetLimit }>> = {
  coins: { group: 'wallet-history', limit: { count: 5, periodMs: 60_000 } },
  withdraws: { group: 'wallet-history', limit: { count: 5, periodMs: 60_000 } },
  depositAddress: { group: 'deposit-address', limit: { count: 1, periodMs: 60_000 } },
};

/** Thrown to waiters when the engine stops. */
export class SyncStoppedError extends Error {
  constructor() {
    super('Sync stopped');
    this.name = 'SyncStoppedError';
  }
}

/**
 * The client as a sync engine sees it: every call still pending when `stopped` rejects ends at
 * once with that rejection, so stopping never waits behind the client's paced queue (a 5-a-minute
 * endpoint can hold a call for most of a minute). The call itself may still reach the exchange;
 * its answer is dropped, and nothing is written from it because the step has already ended.
 */
export function untilStopped<T extends object>(target: T, stopped: Promise<never>): T {
  const wrapped = new WeakMap<object, unknown>();
  const wrap = <U extends object>(object: U): U =>
    new Proxy(object, {
      get(inner, property) {
        const value: unknown = Reflect.get(inner, property, inner);
        if (typeof value === 'function') {
          return (...args: unknown[]) => {
            const result: unknown = (value as (...a: unknown[]) => unknown).apply(inner, args);
            return result instanceof Promise ? Promise.race([result, stopped]) : result;
          };
        }
        if (typeof value === 'object' && value !== null) {
          if (!wrapped.has(value)) wrapped.set(value, wrap(value));
          return wrapped.get(value);
        }
        return value;
      },
    });
  return wrap(target);
}

/** Thrown to the waiter of a queued call that was canceled before its slot came. */
export class RequestCanceledError extends Error {
  constructor() {
    super('The request was canceled before it was sent');
    this.name = 'RequestCanceledError';
  }
}

/** Given back by take(): call it once the exchange answered (or the call failed). */
export type ReleaseSlot = () => void;

/** A call waiting for a slot of its budget, as queue() gives it. */
export interface QueuedCall {
  /** Resolves with the release function once the call may go; rejects when canceled or stopped. */
  readonly granted: Promise<ReleaseSlot>;
  /**
   * When the call starts: the time it was granted, or for a call still queued the budget's next
   * slot for it (each call ahead assumed answered at once; one in flight assumed answered now).
   */
  startsAt(): number;
  /** Takes the call out of the queue before it is granted: true if it was still queued. */
  cancel(): boolean;
}

interface Waiter {
  resolve: (release: ReleaseSlot) => void;
  reject: (error: Error) => void;
  grantedAt?: number;
}

class Group {
  /** When each slot in use frees: Infinity while its call is in flight, then answer + period. */
  readonly freeAt: number[] = [];
  readonly waiters: Waiter[] = [];
  timer: TimerHandle | undefined;
  constructor(readonly limit: BudgetLimit) {}
}

export class PacingBudget {
  private readonly groups = new Map<string, Group>();
  private stopped = false;

  /** enabled false: no pacing at all (tests and benches against a sandbox without limits). */
  constructor(
    private readonly clock: Clock,
    private readonly enabled = true,
  ) {}

  private groupFor(endpoint: EndpointName): Group | null {
    const spec = BUDGET_GROUPS[endpoint];
    if (!spec || !this.enabled) return null;
    let group = this.groups.get(spec.group);
    if (!group) {
      group = new Group(spec.limit);
      this.groups.set(spec.group, group);
    }
    return group;
  }

  /** How long a call to this endpoint would wait for a slot now (0 when one is free). */
  waitMs(endpoint: EndpointName): number {
    const group = this.groupFor(endpoint);
    if (!group) return 0;
    const now = this.clock.now();
    this.expire(group, now);
    if (group.freeAt.length + group.waiters.length < group.limit.count) return 0;
    const soonest = Math.min(...group.freeAt);
    return Number.isFinite(soonest) ? Math.max(1, soonest - now) : group.limit.periodMs;
  }

  /**
   * Resolves with a release function once a slot is free. A slot frees one full period after the
   * call's ANSWER, so any N+1 calls reach the exchange more than a period apart whatever the
   * network delay (the exchange counts arrivals in fixed windows).
   */
  take(endpoint: EndpointName): Promise<ReleaseSlot> {
    return this.queue(endpoint).granted;
  }

  /** Like take(), for a call the user waits on: it tells when it will start and can be canceled. */
  queue(endpoint: EndpointName): QueuedCall {
    const queuedAt = this.clock.now();
    if (this.stopped) {
      const granted = Promise.reject(new SyncStoppedError());
      granted.catch(() => undefined);
      return { granted, startsAt: () => queuedAt, cancel: () => false };
    }
    const group = this.groupFor(endpoint);
    if (!group) {
      return {
        granted: Promise.resolve(() => undefined),
        startsAt: () => queuedAt,
        cancel: () => false,
      };
    }
    let waiter!: Waiter;
    const granted = new Promise<ReleaseSlot>((resolve, reject) => {
      waiter = {
        resolve: (release) => {
          waiter.grantedAt = this.clock.now();
          resolve(release);
        },
        reject,
      };
    });
    group.waiters.push(waiter);
    this.drain(group);
    return {
      granted,
      startsAt: () => waiter.grantedAt ?? this.startOf(group, waiter),
      cancel: () => {
        const index = group.waiters.indexOf(waiter);
        if (index < 0) return false;
        group.waiters.splice(index, 1);
        waiter.reject(new RequestCanceledError());
        // The calls behind it move up; the timer for the next free slot stays as it is.
        this.drain(group);
        return true;
      },
    };
  }

  /** When a queued waiter's slot comes, if every call ahead of it is answered at once. */
  private startOf(group: Group, waiter: Waiter): number {
    const now = this.clock.now();
    this.expire(group, now);
    const { count, periodMs } = group.limit;
    const frees = group.freeAt.map((at) => (Number.isFinite(at) ? at : now + periodMs));
    while (frees.length < count) frees.push(now);
    for (const ahead of group.waiters) {
      frees.sort((a, b) => a - b);
      const start = Math.max(now, frees.shift()!);
      if (ahead === waiter) return start;
      frees.push(start + periodMs);
    }
    return now;
  }

  private expire(group: Group, now: number): void {
    for (let i = group.freeAt.length - 1; i >= 0; i -= 1) {
      if (group.freeAt[i]! <= now) group.freeAt.splice(i, 1);
    }
  }

  private drain(group: Group): void {
    const now = this.clock.now();
    this.expire(group, now);
    while (group.waiters.length > 0 && group.freeAt.length < group.limit.count) {
      group.freeAt.push(Infinity);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        const index = group.freeAt.indexOf(Infinity, 0);
        if (index >= 0) group.freeAt[index] = this.clock.now() + group.limit.periodMs;
        this.drain(group);
      };
      group.waiters.shift()!.resolve(release);
    }
    if (group.waiters.length > 0) {
      const soonest = Math.min(...group.freeAt);
      if (Number.isFinite(soonest) && group.timer === undefined) {
        group.timer = this.clock.setTimeout(() => {
          group.timer = undefined;
          this.drain(group);
        }, soonest - now);
      }
    }
  }

  stop(): void {
    this.stopped = true;
    for (const group of this.groups.values()) {
      this.clock.clearTimeout(group.timer);
      group.timer = undefined;
      for (const waiter of group.waiters.splice(0)) waiter.reject(new SyncStoppedError());
    }
  }
}
