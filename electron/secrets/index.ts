/**
 * API keys in the OS keychain. Public API:
 * - SecretStore (set/get/delete/list per profile id; entries() reads every entry with its pair in
 *   one pass), ApiSecret {apiKey, secretKey}, SecretEntry {id, secret | null}
 * - KeytarSecretStore: the real store (service 'Spotfolio', one JSON entry per profile); failures
 *   reject with SecretStoreUnavailableError whose message says what to start or unlock.
 * - DemoSecretStore: in-memory, for the demo profile's sandbox key only (never a fallback).
 * - redact(text, secrets): strips secrets from log lines.
 */
export {
  SecretFormatError,
  SecretStoreUnavailableError,
  type ApiSecret,
  type SecretEntry,
  type SecretStore,
} from './secret-store';
export { KEYCHAIN_SERVICE, KeytarSecretStore, type KeytarSecretStoreOptions } from './keytar';
export { DemoSecretStore } from './memory';
export { redact, REDACTED } from './redact';
