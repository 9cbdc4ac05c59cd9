/**
 * Which exchange addresses the client will talk to. API keys and signed requests never travel
 * unencrypted: a base URL must be https: and a stream URL wss:, except to this machine itself
 * (127.0.0.0/8, ::1, localhost), where nothing crosses a network; that is where the sandbox and
 * local tooling listen.
 */
import { ExchangeError } from './errors';

/** True for a URL hostname that names this machine: 127.0.0.0/8, [::1] or localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  // URL has already normalised IPv4 forms such as "127.1" or "2130706433" to dotted quads.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Why `text` may not serve as the given kind of address, or undefined when it may. */
export function insecureUrlReason(text: string, kind: 'rest' | 'stream'): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return kind === 'rest' ? 'must be an https: URL' : 'must be a wss: URL';
  }
  const [secure, plain] = kind === 'rest' ? ['https:', 'http:'] : ['wss:', 'ws:'];
  if (url.protocol === secure) return undefined;
  if (url.protocol === plain) {
    return isLoopbackHost(url.hostname)
      ? undefined
      : `must use ${secure} (plain ${plain} is refused except to this machine: 127.0.0.1, ::1, localhost), got ${url.origin}`;
  }
  return `must be a ${secure} URL, got ${url.protocol}`;
}

/** Throws an 'invalid-input' ExchangeError naming `field` unless `text` is an allowed address. */
export function assertExchangeUrl(text: unknown, kind: 'rest' | 'stream', field: string): void {
  const reason =
    typeof text === 'string'
      ? insecureUrlReason(text, kind)
      : `must be ${kind === 'rest' ? 'an https:' : 'a wss:'} URL`;
  if (reason !== undefined) {
    throw new ExchangeError('invalid-input', `Invalid input: ${field} ${reason}`, { field });
  }
}
