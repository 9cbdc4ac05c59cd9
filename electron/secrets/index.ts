/**
 * API keys in the OS keychain. Public API:
 * - SecretStore (set/get/delete/list per profile id; entries() reads every entry with its pair in
 *   one pass), ApiSecret {apiKey, secretKey}, SecretEntry {id, secret | null}
 * - KeytarSecretStore: the real store (service 'Spotfolio', one JSON entry per profile); failures
 *   reject with SecretStoreUnavailableError whose message says what to start or unlock.
 * - DemoSecretStore: in-memory, for the demo profile's sandbox key only (never a fallback).
 * - Keychain: the keychain as text (read/write/remove/all); KeytarSecretStore and DemoSecretStore
 *   are both.
 * - KeyVault: a data folder's key pairs on a Keychain, under its install id, sealed with the lock
 *   password's key when one is set (SecretsSealedError until it is given).
 * - subAccountKeyId(profileId, email): the entry id of a linked sub-account's key (an entry beside
 *   its profile's, sealed and removed like it); subAccountOfKeyId(id) reads one back.
 * - redact(text, secrets): strips secrets from log lines.
 */
export {
  SecretFormatError,
  SecretsSealedError,
  SecretStoreUnavailableError,
  subAccountKeyId,
  subAccountOfKeyId,
  type ApiSecret,
  type Keychain,
  type SecretEntry,
  type SecretStore,
} from './secret-store';
export { KEYCHAIN_SERVICE, KeytarSecretStore, type KeytarSecretStoreOptions } from './keytar';
export { DemoSecretStore } from './memory';
export { redact, REDACTED } from './redact';
export { isSealed, KeyVault, type SealKey, type VaultOptions } from './vault';
