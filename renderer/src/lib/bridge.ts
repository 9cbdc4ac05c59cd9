/**
 * The renderer's one door to the app: window.spotfolio (the preload in Electron, the WebSocket
 * transport in browser mode). Also turns a failed call into words that say what to do.
 */
import type { SpotfolioBridge } from '../../../shared/contract';
import type { ErrorKind } from '../../../shared/types';

/**
 * Asks the person for the lock password before a sensitive action (the main process answered
 * `confirm-password`): resolves to the password given, or null when they backed out.
 */
export type PasswordPrompt = (reason: string) => Promise<string | null>;

let passwordPrompt: PasswordPrompt | null = null;

/** The page's password dialog registers itself here while it is mounted. */
export function setPasswordPrompt(prompt: PasswordPrompt | null): void {
  passwordPrompt = prompt;
}

let wrappedFor: SpotfolioBridge | null = null;
let wrapped: SpotfolioBridge | null = null;

export function bridge(): SpotfolioBridge {
  const installed = (window as unknown as { spotfolio?: SpotfolioBridge }).spotfolio;
  if (!installed) {
    throw new Error('The app bridge is not available. Restart Spotfolio.');
  }
  if (wrappedFor !== installed || !wrapped) {
    wrapped = withPasswordConfirmation(installed);
    wrappedFor = installed;
  }
  return wrapped;
}

function isConfirmPassword(error: unknown): error is { kind: 'confirm-password'; message: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { kind?: unknown }).kind === 'confirm-password'
  );
}

/**
 * The bridge with one addition: a call the main process holds back until the password is given
 * again asks for it (the page's dialog), confirms it with lock.confirm and is sent once more. The
 * main process still decides; backing out gives the caller the original refusal.
 */
function withPasswordConfirmation(inner: SpotfolioBridge): SpotfolioBridge {
  const confirmThenRetry = async (call: () => Promise<unknown>): Promise<unknown> => {
    try {
      return await call();
    } catch (error) {
      if (!isConfirmPassword(error) || !passwordPrompt) throw error;
      let reason = error.message;
      for (;;) {
        const password = await passwordPrompt(reason);
        if (password === null) throw error;
        const result = await inner.lock.confirm({ password });
        if (result.confirmed) return call();
        reason =
          result.reason === 'too-soon'
            ? 'Too many wrong passwords: wait a moment, then try again.'
            : 'That password is not right. Try again.';
      }
    }
  };
  // Each member is looked up on the installed bridge when it is called, not when it was wrapped.
  const members = inner as unknown as Record<
    string,
    ((...args: unknown[]) => unknown) | Record<string, (...args: unknown[]) => Promise<unknown>>
  >;
  const outer: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(members)) {
    if (typeof member === 'function') {
      outer[name] = (...args: unknown[]) =>
        (members[name] as (...a: unknown[]) => unknown)(...args);
      continue;
    }
    const group: Record<string, unknown> = {};
    for (const method of Object.keys(member)) {
      group[method] = (...args: unknown[]) =>
        confirmThenRetry(() =>
          (members[name] as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]!(
            ...args,
          ),
        );
    }
    outer[name] = group;
  }
  return outer as unknown as SpotfolioBridge;
}

export interface ErrorInfo {
  kind: ErrorKind | 'unknown';
  message: string;
  field?: string;
  /** What the user can do about it. */
  advice: string;
}

/**
 * What the user can do, after the message that says what happened: the message names the cause
 * (the main process words it, with the exchange's own words where it said any), so the advice
 * never says it again.
 */
const adviceByKind: Record<ErrorKind | 'unknown', string> = {
  'invalid-input': 'Check the highlighted field and try again.',
  auth: 'Check the key and secret, or add the profile again in Settings.',
  permission: 'Enable the permission for this key on the exchange, or use another key.',
  'rate-limited': 'Wait a minute and try again.',
  banned: 'Wait a few minutes before trying again.',
  'not-found': 'Refresh the screen; it may have changed.',
  'insufficient-balance': 'Lower the amount, or cancel open orders to free funds.',
  network:
    "Check your connection and the profile's address in Settings; cached data stays visible.",
  'unknown-outcome': 'Check the history before you try again.',
  server: 'Try again in a moment.',
  keychain: 'Unlock the system keychain (or start it) and try again.',
  'no-profile': 'Add an API key or start the demo first.',
  locked: 'Unlock Spotfolio with your password.',
  'confirm-password': 'Enter your lock password again to go on.',
  internal: 'Try again; if it keeps happening, restart Spotfolio.',
  unknown: 'Try again; if it keeps happening, restart Spotfolio.',
};

const knownKinds = new Set(Object.keys(adviceByKind));

/** Reads a BridgeCallError (kind/message/field) or any thrown value. */
export function errorInfo(error: unknown): ErrorInfo {
  if (error && typeof error === 'object') {
    const record = error as { kind?: unknown; message?: unknown; field?: unknown };
    const kind =
      typeof record.kind === 'string' && knownKinds.has(record.kind)
        ? (record.kind as ErrorKind)
        : 'unknown';
    const message =
      typeof record.message === 'string' && record.message ? record.message : 'Unexpected error';
    const field = typeof record.field === 'string' ? record.field : undefined;
    return { kind, message, field, advice: adviceByKind[kind] };
  }
  return { kind: 'unknown', message: String(error), advice: adviceByKind.unknown };
}
