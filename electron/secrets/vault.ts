/**
 * The key pairs of one data folder, kept in the keychain (a text Keychain: the OS keychain, or
 * memory in tests):
 *
 * - Owned per data folder: each entry's account is `<install id>/<profile id>`, the install id a
 *   random one kept in the folder's record. Listing, orphan search and removal see only this
 *   folder's entries, so two data folders never take each other's keys. An entry of an older
 *   version (account = profile id alone) is claimed by the folder whose record has its profile.
 * - Sealed with the lock password when one is set: AES-256-GCM under a key derived from the
 *   password (the lock derives it; see electron/lock/), the profile id bound in as associated
 *   data so an entry cannot be passed off as another profile's. The derived key lives in memory
 *   only; until the lock hands it over (the first unlock after a start) nothing can be read.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import {
  checkSecret,
  encodeKeyPair,
  parseKeyPair,
  SecretFormatError,
  SecretsSealedError,
  type ApiSecret,
  type Keychain,
  type SecretEntry,
  type SecretStore,
} from './secret-store';

/** A key derived from the lock password; `id` names the derivation (its salt), never the key. */
export interface SealKey {
  id: string;
  key: Buffer;
}

/** An entry's text once sealed. The pair is inside `data`; nothing of it is readable without the key. */
interface SealedText {
  sealed: 1;
  /** The SealKey's id it was sealed with. */
  kid: string;
  iv: string;
  tag: string;
  data: string;
}

const SEPARATOR = '/';
const IV_BYTES = 12;

function associatedData(profileId: string): Buffer {
  return Buffer.from(`spotfolio-api-key:${profileId}`, 'utf8');
}

export function sealKeyPair(key: SealKey, profileId: string, secret: ApiSecret): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(associatedData(profileId));
  const data = Buffer.concat([cipher.update(encodeKeyPair(secret), 'utf8'), cipher.final()]);
  const sealed: SealedText = {
    sealed: 1,
    kid: key.id,
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
  return JSON.stringify(sealed);
}

function sealedForm(text: string): SealedText | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const form = parsed as Partial<SealedText> | null;
  return form?.sealed === 1 &&
    typeof form.kid === 'string' &&
    typeof form.iv === 'string' &&
    typeof form.tag === 'string' &&
    typeof form.data === 'string'
    ? (form as SealedText)
    : null;
}

/** Whether an entry's text is sealed (tests read the raw keychain with it). */
export function isSealed(text: string): boolean {
  return sealedForm(text) !== null;
}

function openSealed(key: SealKey, profileId: string, sealed: SealedText): ApiSecret {
  const otherPassword = () =>
    new SecretFormatError(
      `The keychain entry of profile ${profileId} was sealed with another lock password; enter the keys again.`,
    );
  if (sealed.kid !== key.id) throw otherPassword();
  let text: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(associatedData(profileId));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    text = Buffer.concat([
      decipher.update(Buffer.from(sealed.data, 'base64')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw otherPassword();
  }
  return parseKeyPair(profileId, text);
}

export interface VaultOptions {
  keychain: Keychain;
  /** This data folder's install id (random, kept in its record). */
  installId: string;
}

export class KeyVault implements SecretStore {
  private readonly keychain: Keychain;
  private readonly installId: string;
  private key: SealKey | null = null;
  /** A lock password is set: no entry is written unsealed. */
  private sealingRequired = false;

  constructor(options: VaultOptions) {
    if (options.installId === '' || options.installId.includes(SEPARATOR)) {
      throw new Error('An install id must be non-empty text without a slash');
    }
    this.keychain = options.keychain;
    this.installId = options.installId;
  }

  /** The keychain account of a profile's entry in this data folder. */
  account(profileId: string): string {
    return `${this.installId}${SEPARATOR}${profileId}`;
  }

  /** A lock password is set (entries must be sealed) or not. */
  requireSealing(required: boolean): void {
    this.sealingRequired = required;
  }

  /** The key entries are sealed with; null forgets it (the password was removed). */
  useKey(key: SealKey | null): void {
    this.key = key;
  }

  hasKey(): boolean {
    return this.key !== null;
  }

  async set(profileId: string, secret: ApiSecret): Promise<void> {
    checkSecret(profileId, secret);
    await this.keychain.write(this.account(profileId), this.encode(profileId, secret, this.key));
  }

  async get(profileId: string): Promise<ApiSecret | null> {
    const text = await this.keychain.read(this.account(profileId));
    return text === null ? null : this.decode(profileId, text);
  }

  delete(profileId: string): Promise<boolean> {
    return this.keychain.remove(this.account(profileId));
  }

  async list(): Promise<string[]> {
    return (await this.own()).map((entry) => entry.id).sort();
  }

  async entries(): Promise<SecretEntry[]> {
    const own = await this.own();
    return own
      .map(({ id, text }) => ({ id, secret: this.readable(id, text) }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /**
   * Claims entries of an older version (account = profile id, no install id) whose profile is in
   * this folder's record: each moves under this folder's account, as it is. Returns the ids moved.
   */
  async claim(profileIds: ReadonlySet<string>): Promise<string[]> {
    const claimed: string[] = [];
    for (const { account, text } of await this.keychain.all()) {
      if (account.includes(SEPARATOR) || !profileIds.has(account)) continue;
      const target = this.account(account);
      // A folder that already owns an entry for the profile keeps it; the old one is a copy.
      if ((await this.keychain.read(target)) === null) await this.keychain.write(target, text);
      await this.keychain.remove(account);
      claimed.push(account);
    }
    return claimed;
  }

  /**
   * Rewrites this folder's entries under `to` (sealed with it; unsealed for null), reading each
   * with the key in use. Entries already in that form are left; entries that cannot be read (sealed
   * with another password) are left as they are and counted. Then `to` is the key in use.
   */
  async reseal(to: SealKey | null): Promise<{ rewritten: number; unreadable: string[] }> {
    let rewritten = 0;
    const unreadable: string[] = [];
    for (const { id, text } of await this.own()) {
      const sealed = sealedForm(text);
      if (to ? sealed?.kid === to.id : sealed === null) continue;
      let secret: ApiSecret;
      try {
        secret = this.decode(id, text);
      } catch (error) {
        if (!(error instanceof SecretFormatError)) throw error;
        unreadable.push(id);
        continue;
      }
      await this.keychain.write(this.account(id), this.encode(id, secret, to, to === null));
      rewritten++;
    }
    this.key = to;
    this.sealingRequired = to !== null;
    return { rewritten, unreadable };
  }

  /** Deletes every entry of this folder (a lock reset without the password). Returns the ids. */
  async forgetAll(): Promise<string[]> {
    const removed: string[] = [];
    for (const { id } of await this.own()) {
      if (await this.keychain.remove(this.account(id))) removed.push(id);
    }
    return removed;
  }

  private async own(): Promise<{ id: string; text: string }[]> {
    const prefix = `${this.installId}${SEPARATOR}`;
    return (await this.keychain.all())
      .filter(({ account }) => account.startsWith(prefix) && account.length > prefix.length)
      .map(({ account, text }) => ({ id: account.slice(prefix.length), text }));
  }

  private encode(
    profileId: string,
    secret: ApiSecret,
    key: SealKey | null,
    unsealing = false,
  ): string {
    if (key) return sealKeyPair(key, profileId, secret);
    if (this.sealingRequired && !unsealing) throw new SecretsSealedError();
    return encodeKeyPair(secret);
  }

  private decode(profileId: string, text: string): ApiSecret {
    const sealed = sealedForm(text);
    if (!sealed) return parseKeyPair(profileId, text);
    if (!this.key) throw new SecretsSealedError();
    return openSealed(this.key, profileId, sealed);
  }

  /** The pair, or null when the entry holds none this app can open. */
  private readable(profileId: string, text: string): ApiSecret | null {
    try {
      return this.decode(profileId, text);
    } catch (error) {
      if (error instanceof SecretFormatError) return null;
      throw error;
    }
  }
}
