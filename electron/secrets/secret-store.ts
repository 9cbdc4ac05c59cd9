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
