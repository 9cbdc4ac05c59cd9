/**
 * API keys in the OS keychain through keytar: macOS Keychain, Windows Credential Manager, or the
 * Secret Service (gnome-keyring, KWallet) on Linux. One entry per profile under the service
 * 'Spotfolio', account = profile id, password = JSON {apiKey, secretKey}.
 *
 * keytar is a native module and is loaded on first use, so a missing module or a missing/locked
 * keychain surfaces as a SecretStoreUnavailableError with what to do, never as a crash at start-up
 * and never as a silent fallback to a file.
 */
import {
  checkSecret,
  encodeKeyPair,
  parseKeyPair,
  readKeyPair,
  SecretStoreUnavailableError,
  type ApiSecret,
  type Keychain,
  type SecretEntry,
  type SecretStore,
} from './secret-store';

export const KEYCHAIN_SERVICE = 'Spotfolio';

/** The part of keytar this store uses. */
export interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
}

export interface KeytarSecretStoreOptions {
  /** Keychain service name; 'Spotfolio' unless a test isolates itself. */
  service?: string;
  /** Loads keytar; replaced only to exercise the missing-module path. */
  loadKeytar?: () => Promise<KeytarApi>;
  /** Chooses the wording of errors; process.platform by default. */
  platform?: NodeJS.Platform;
}

async function importKeytar(): Promise<KeytarApi> {
  const loaded = (await import('keytar')) as KeytarApi & { default?: KeytarApi };
  return loaded.default ?? loaded;
}

export class KeytarSecretStore implements SecretStore, Keychain {
  private readonly service: string;
  private readonly load: () => Promise<KeytarApi>;
  private readonly platform: NodeJS.Platform;
  private keytar: Promise<KeytarApi> | undefined;

  constructor(options: KeytarSecretStoreOptions = {}) {
    this.service = options.service ?? KEYCHAIN_SERVICE;
    this.load = options.loadKeytar ?? importKeytar;
    this.platform = options.platform ?? process.platform;
  }

  async set(profileId: string, secret: ApiSecret): Promise<void> {
    checkSecret(profileId, secret);
    const password = encodeKeyPair(secret);
    await this.call((k) => k.setPassword(this.service, profileId, password));
  }

  async get(profileId: string): Promise<ApiSecret | null> {
    const password = await this.call((k) => k.getPassword(this.service, profileId));
    return password === null ? null : parseKeyPair(profileId, password);
  }

  async delete(profileId: string): Promise<boolean> {
    return this.call((k) => k.deletePassword(this.service, profileId));
  }

  async list(): Promise<string[]> {
    const credentials = await this.call((k) => k.findCredentials(this.service));
    return credentials.map((c) => c.account).sort();
  }

  async entries(): Promise<SecretEntry[]> {
    const credentials = await this.call((k) => k.findCredentials(this.service));
    return credentials
      .map(({ account, password }) => ({ id: account, secret: readKeyPair(account, password) }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  read(account: string): Promise<string | null> {
    return this.call((k) => k.getPassword(this.service, account));
  }

  async write(account: string, text: string): Promise<void> {
    await this.call((k) => k.setPassword(this.service, account, text));
  }

  remove(account: string): Promise<boolean> {
    return this.call((k) => k.deletePassword(this.service, account));
  }

  async all(): Promise<{ account: string; text: string }[]> {
    const credentials = await this.call((k) => k.findCredentials(this.service));
    return credentials.map(({ account, password }) => ({ account, text: password }));
  }

  /** Resolves when the keychain answers; rejects with SecretStoreUnavailableError otherwise. */
  async probe(): Promise<void> {
    await this.call((k) => k.findCredentials(this.service));
  }

  private async call<T>(operation: (keytar: KeytarApi) => Promise<T>): Promise<T> {
    let keytar: KeytarApi;
    try {
      this.keytar ??= this.load();
      keytar = await this.keytar;
    } catch (error) {
      this.keytar = undefined; // a later attempt may succeed once the module is repaired
      throw new SecretStoreUnavailableError(
        `The keychain module (keytar) could not be loaded (${describe(error)}). ` +
          'Reinstall Spotfolio; API keys are only ever kept in the OS keychain.',
        'module-missing',
        { cause: error },
      );
    }
    try {
      return await operation(keytar);
    } catch (error) {
      throw unavailable(error, this.platform);
    }
  }
}

/** Turns a keychain failure into the message that says what to start or unlock. */
export function unavailable(
  error: unknown,
  platform: NodeJS.Platform,
): SecretStoreUnavailableError {
  const detail = describe(error);
  const locked = /locked|interaction is not allowed|user canceled|dismissed|passphrase/i.test(
    detail,
  );
  let message: string;
  if (platform === 'darwin') {
    message = locked
      ? 'The macOS Keychain is locked: unlock your keychain (Keychain Access, login keychain) and try again.'
      : 'The macOS Keychain could not be used: unlock your keychain (Keychain Access, login keychain) and try again.';
  } else if (platform === 'win32') {
    message =
      'Windows Credential Manager could not be used: sign in to your Windows account and make sure the ' +
      'Credential Manager service is running, then try again.';
  } else if (locked) {
    message =
      'The login keyring is locked: unlock your keychain (the login keyring) and try again.';
  } else {
    message =
      'No Secret Service is running: start gnome-keyring-daemon (or KWallet) and unlock the login keyring.';
  }
  return new SecretStoreUnavailableError(
    `${message} (${detail})`,
    locked ? 'locked' : 'no-service',
    {
      cause: error,
    },
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
