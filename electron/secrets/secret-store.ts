/** The small interface the app keeps API keys behind, and its errors. */

export interface ApiSecret {
  apiKey: string;
  secretKey: string;
}

/** API keys per profile. Implementations never write a secret anywhere but the keychain. */
export interface SecretStore {
  set(profileId: string, secret: ApiSecret): Promise<void>;
  get(profileId: string): Promise<ApiSecret | null>;
  /** Returns false when the profile had no entry. */
  delete(profileId: string): Promise<boolean>;
  /** Profile ids that have an entry. */
  list(): Promise<string[]>;
  /**
   * Every entry with its key pair, read in one pass (the keychain's findCredentials), ordered by
   * id: how entries whose profile is gone are found and how a key already kept is recognised.
   */
  entries(): Promise<SecretEntry[]>;
}

/**
 * The keychain as text: one entry per account under the app's service. The vault (vault.ts) keeps
 * the key pairs on top of it, sealed or not, under this data folder's accounts.
 */
export interface Keychain {
  read(account: string): Promise<string | null>;
  write(account: string, text: string): Promise<void>;
  /** Returns false when there was no such entry. */
  remove(account: string): Promise<boolean>;
  /** Every entry under the service, in one search. */
  all(): Promise<{ account: string; text: string }[]>;
}

/** One entry of the store: `secret` is null when the entry is not a Spotfolio key pair. */
export interface SecretEntry {
  id: string;
  secret: ApiSecret | null;
}

/**
 * The OS keychain cannot be used right now. `message` says what the user should start or unlock;
 * there is deliberately no fallback that would store the secret elsewhere.
 */
export class SecretStoreUnavailableError extends Error {
  constructor(
    message: string,
    readonly reason: 'module-missing' | 'no-service' | 'locked',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SecretStoreUnavailableError';
  }
}

/**
 * The keys are sealed with the lock password and the password has not been given since the app
 * started: nothing can be signed until the app is unlocked.
 */
export class SecretsSealedError extends Error {
  constructor(
    message = 'The API keys are sealed with your lock password: unlock Spotfolio first.',
  ) {
    super(message);
    this.name = 'SecretsSealedError';
  }
}

/** A keychain entry or an argument that is not a valid API key pair. */
export class SecretFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretFormatError';
  }
}

export function checkSecret(profileId: string, secret: ApiSecret): void {
  if (typeof profileId !== 'string' || profileId === '') {
    throw new SecretFormatError('profile id must be a non-empty string');
  }
  if (typeof secret?.apiKey !== 'string' || secret.apiKey.trim() === '') {
    throw new SecretFormatError(`API key of profile ${profileId} must be a non-empty string`);
  }
  if (typeof secret.secretKey !== 'string' || secret.secretKey.trim() === '') {
    throw new SecretFormatError(`secret key of profile ${profileId} must be a non-empty string`);
  }
}

/**
 * A linked sub-account's key is an entry of its own beside its profile's: its id is the
 * profile's id, this mark and the sub-account's e-mail (lower case). A profile id never holds a
 * slash, so such an id is never a profile's.
 */
const SUB_ACCOUNT_MARK = '/sub/';

export function subAccountKeyId(profileId: string, email: string): string {
  if (profileId === '' || profileId.includes('/')) {
    throw new SecretFormatError('profile id must be non-empty text without a slash');
  }
  return `${profileId}${SUB_ACCOUNT_MARK}${email.trim().toLowerCase()}`;
}

/** The profile and sub-account of a sub-account key's entry id; null for a profile's own. */
export function subAccountOfKeyId(id: string): { profileId: string; email: string } | null {
  const at = id.indexOf(SUB_ACCOUNT_MARK);
  if (at <= 0) return null;
  return { profileId: id.slice(0, at), email: id.slice(at + SUB_ACCOUNT_MARK.length) };
}

/** A key pair as a keychain entry holds it when it is not sealed. */
export function encodeKeyPair(secret: ApiSecret): string {
  return JSON.stringify({ apiKey: secret.apiKey, secretKey: secret.secretKey });
}

/** The entry's key pair, or null when it holds something else (it is then shown, never parsed). */
export function readKeyPair(profileId: string, password: string): ApiSecret | null {
  try {
    return parseKeyPair(profileId, password);
  } catch (error) {
    if (error instanceof SecretFormatError) return null;
    throw error;
  }
}

export function parseKeyPair(profileId: string, password: string): ApiSecret {
  let parsed: unknown;
  try {
    parsed = JSON.parse(password);
  } catch {
    parsed = undefined;
  }
  const entry = parsed as Partial<ApiSecret> | undefined;
  if (
    typeof entry?.apiKey !== 'string' ||
    typeof entry.secretKey !== 'string' ||
    entry.apiKey === '' ||
    entry.secretKey === ''
  ) {
    // The entry's content is not echoed: it may be a secret in another shape.
    throw new SecretFormatError(
      `The keychain entry of profile ${profileId} is not a Spotfolio API key pair; enter the keys again.`,
    );
  }
  return { apiKey: entry.apiKey, secretKey: entry.secretKey };
}
