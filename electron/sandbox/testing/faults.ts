/**
 * Fault injection for tests: the next matching requests fail before or after being handled (a
 * 5xx whose effect did or did not happen), are answered with an error of the exchange's table
 * without being handled (what an exchange that lost its state says), or are delayed. Installed into the sandbox's request
 * handler as its interceptor; the product never installs one.
 */
import { sleep, SystemClock } from '../../core/clock';
import { errors, SandboxError } from '../errors';
import type { RequestInterceptor } from '../server';

export type Fault =
  | { kind: 'error-before' | 'error-after'; status?: number }
  | { kind: 'answer'; status: number; code: number; message: string }
  | { kind: 'latency'; ms: number };

export interface FaultMatch {
  method?: string;
  path: string;
}

interface FaultRule {
  method?: string;
  path: string;
  fault: Fault;
  remaining: number;
}

export class FaultInjector implements RequestInterceptor {
  private rules: FaultRule[] = [];
  /** Requests seen per "METHOD path", faulted or not: what a test counts calls by. */
  private readonly seen = new Map<string, number>();
  /**
   * Latency is wall time whatever the sandbox's clock: it is there to outlast the client's request
   * timeout, which is wall time too.
   */
  private readonly wallClock = new SystemClock();

  inject(match: FaultMatch, fault: Fault, times = 1): void {
    const rule: FaultRule = { path: match.path, fault, remaining: times };
    if (match.method !== undefined) rule.method = match.method.toUpperCase();
    this.rules.push(rule);
  }

  clear(): void {
    this.rules = [];
  }

  /** How many requests of `path` (with `method`, else any) reached the sandbox so far. */
  count(match: FaultMatch): number {
    let total = 0;
    for (const [key, n] of this.seen) {
      const [method, path] = key.split(' ', 2) as [string, string];
      if (
        path === match.path &&
        (match.method === undefined || match.method.toUpperCase() === method)
      ) {
        total += n;
      }
    }
    return total;
  }

  before(method: string, path: string): number | undefined | Promise<number | undefined> {
    const key = `${method} ${path}`;
    this.seen.set(key, (this.seen.get(key) ?? 0) + 1);
    const faults = this.take(method, path);
    if (faults.length === 0) return undefined;
    if (faults.some((fault) => fault.kind === 'latency')) return this.apply(faults);
    return applyWithoutDelay(faults);
  }

  /** The faults in the order they were injected, delays included. */
  private async apply(faults: Fault[]): Promise<number | undefined> {
    let statusAfter: number | undefined;
    for (const fault of faults) {
      if (fault.kind === 'latency') await sleep(this.wallClock, fault.ms);
      else if (fault.kind === 'error-before') throw errors.internal(fault.status ?? 500);
      else if (fault.kind === 'answer') throw answered(fault);
      else statusAfter = fault.status ?? 500;
    }
    return statusAfter;
  }

  /** Takes the faults that apply to this request (one use of each matching rule). */
  private take(method: string, path: string): Fault[] {
    if (this.rules.length === 0) return [];
    const taken: Fault[] = [];
    for (const rule of this.rules) {
      if (
        rule.remaining > 0 &&
        rule.path === path &&
        (rule.method === undefined || rule.method === method)
      ) {
        rule.remaining--;
        taken.push(rule.fault);
      }
    }
    this.rules = this.rules.filter((rule) => rule.remaining > 0);
    return taken;
  }
}

function applyWithoutDelay(faults: Fault[]): number | undefined {
  let statusAfter: number | undefined;
  for (const fault of faults) {
    if (fault.kind === 'error-before') throw errors.internal(fault.status ?? 500);
    if (fault.kind === 'answer') throw answered(fault);
    if (fault.kind === 'error-after') statusAfter = fault.status ?? 500;
  }
  return statusAfter;
}

function answered(fault: { status: number; code: number; message: string }): SandboxError {
  return new SandboxError(fault.code, fault.message, fault.status);
}
