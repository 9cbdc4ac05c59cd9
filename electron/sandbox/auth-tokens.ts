import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock';

/** Validity of a WebSocket auth token: 30 minutes, extended by 30 minutes on each new request. */
export const AUTH_TOKEN_SECONDS = 1800;
const EXTENSION_MS = AUTH_TOKEN_SECONDS * 1000;

interface TokenEntry {
  accountId: number;
  expiresAt: number;
}

/** The auth_keys of create_auth_token: one active key per account, on the sandbox clock. */
export class AuthTokens {
  private readonly byKey = new Map<string, TokenEntry>();
  private readonly byAccount = new Map<number, string>();

  constructor(private readonly clock: Clock) {}

  /** Returns the account's active auth_key (expiry extended by 30 minutes) or a new one. */
  issue(accountId: number): { auth_key: string; timeout_duration: number } {
    const now = this.clock.now();
    const existing = this.byAccount.get(accountId);
    const entry = existing === undefined ? undefined : this.byKey.get(existing);
    if (existing !== undefined && entry && entry.expiresAt > now) {
      entry.expiresAt += EXTENSION_MS;
      return { auth_key: existing, timeout_duration: AUTH_TOKEN_SECONDS };
    }
    if (existing !== undefined) this.byKey.delete(existing);
    const authKey = randomBytes(32).toString('hex');
    this.byKey.set(authKey, { accountId, expiresAt: now + EXTENSION_MS });
    this.byAccount.set(accountId, authKey);
    return { auth_key: authKey, timeout_duration: AUTH_TOKEN_SECONDS };
  }

  /** The account of an auth_key; undefined when unknown or expired by the sandbox clock. */
  accountFor(authKey: string): number | undefined {
    const entry = this.byKey.get(authKey);
    if (!entry || entry.expiresAt <= this.clock.now()) return undefined;
    return entry.accountId;
  }

  /** When the auth_key expires (ms), for tests. */
  expiresAt(authKey: string): number | undefined {
    return this.byKey.get(authKey)?.expiresAt;
  }
}
