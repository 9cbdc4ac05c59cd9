import type { Clock } from '../core/clock';
import { errors } from './errors';

export interface Limit {
  count: number;
  windowMs: number;
}

const VIOLATION_MEMORY_MS = 10 * 60_000;
const VIOLATIONS_TO_BAN = 3;
const FIRST_BAN_MS = 2 * 60_000;
const MAX_BAN_MS = 3 * 86_400_000;

interface WindowState {
  windowStart: number;
  count: number;
  backoffUntil: number;
}

interface IpState {
  violations: number[];
  bannedUntil: number;
  bans: number;
}

/**
 * Fixed-window limits per endpoint and API key (client IP for NONE endpoints), with the back-off
 * and escalating IP bans of docs/exchange-notes.md, all on the sandbox clock.
 */
export class RateLimiter {
  enabled: boolean;
  private readonly windows = new Map<string, WindowState>();
  private readonly ips = new Map<string, IpState>();

  constructor(
    private readonly clock: Clock,
    enabled: boolean,
  ) {
    this.enabled = enabled;
  }

  /** Throws 418 while the IP is banned. */
  checkBan(ip: string): void {
    if (!this.enabled) return;
    const state = this.ips.get(ip);
    const now = this.clock.now();
    if (state && state.bannedUntil > now) {
      throw errors.ipBanned(state.bannedUntil, secondsUntil(state.bannedUntil, now));
    }
  }

  /** Counts one request of `subject` (API key or IP) on `endpoint`; throws 429 or 418. */
  hit(endpoint: string, subject: string, ip: string, limit: Limit): void {
    if (!this.enabled) return;
    const now = this.clock.now();
    const id = endpoint + '\u0000' + subject;
    let state = this.windows.get(id);
    if (!state) {
      state = { windowStart: 0, count: 0, backoffUntil: 0 };
      this.windows.set(id, state);
    }
    if (now < state.backoffUntil) {
      this.violation(ip, now);
      throw errors.tooManyRequests(secondsUntil(state.backoffUntil, now));
    }
    const windowStart = now - (now % limit.windowMs);
    if (state.windowStart !== windowStart) {
      state.windowStart = windowStart;
      state.count = 0;
    }
    if (state.count >= limit.count) {
      state.backoffUntil = windowStart + limit.windowMs;
      throw errors.tooManyRequests(secondsUntil(state.backoffUntil, now));
    }
    state.count++;
  }

  private violation(ip: string, now: number): void {
    let state = this.ips.get(ip);
    if (!state) {
      state = { violations: [], bannedUntil: 0, bans: 0 };
      this.ips.set(ip, state);
    }
    state.violations = state.violations.filter((t) => now - t < VIOLATION_MEMORY_MS);
    state.violations.push(now);
    if (state.violations.length >= VIOLATIONS_TO_BAN) {
      const duration = Math.min(MAX_BAN_MS, FIRST_BAN_MS * 2 ** state.bans);
      state.bans++;
      state.bannedUntil = now + duration;
      state.violations = [];
      throw errors.ipBanned(state.bannedUntil, secondsUntil(state.bannedUntil, now));
    }
  }
}

function secondsUntil(until: number, now: number): number {
  return Math.max(1, Math.ceil((until - now) / 1000));
}
