/**
 * The lock password's cryptography: its scrypt hash (the only form of it ever stored), the check
 * in constant time, and the key the API secrets are sealed with, derived from the password with
 * scrypt under a salt of its own (so the stored hash says nothing about the key).
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { SealKey } from '../secrets';
import type { JsonValue } from '../store/types';

/**
 * scrypt's cost: N = 2^15, r = 8, p = 1 needs 32 MiB of memory and about 0.1 s per check on a
 * laptop (the cost OWASP names for scrypt), with a 16-byte random salt and a 32-byte result. The
 * parameters are stored beside each hash, so raising them later still checks older hashes.
 */
export interface ScryptParameters {
  N: number;
  r: number;
  p: number;
  keyLength: number;
  saltLength: number;
}

export const SCRYPT_PARAMETERS: Readonly<ScryptParameters> = {
  N: 2 ** 15,
  r: 8,
  p: 1,
  keyLength: 32,
  saltLength: 16,
};

/** The stored form of the password: no password is kept, only this. */
export interface PasswordHash {
  algorithm: 'scrypt';
  N: number;
  r: number;
  p: number;
  keyLength: number;
  /** base64 */
  salt: string;
  /** base64 */
  hash: string;
}

function scryptAsync(password: string, salt: Buffer, keyLength: number, options: ScryptOptions) {
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** scrypt needs 128 * N * r * p bytes; Node refuses more than maxmem, 32 MiB by default. */
function scryptOptions(hash: Pick<PasswordHash, 'N' | 'r' | 'p'>): ScryptOptions {
  return { N: hash.N, r: hash.r, p: hash.p, maxmem: 256 * hash.N * hash.r * hash.p };
}

export async function hashPassword(
  password: string,
  parameters: Readonly<ScryptParameters> = SCRYPT_PARAMETERS,
): Promise<PasswordHash> {
  const salt = randomBytes(parameters.saltLength);
  const key = await scryptAsync(password, salt, parameters.keyLength, scryptOptions(parameters));
  return {
    algorithm: 'scrypt',
    N: parameters.N,
    r: parameters.r,
    p: parameters.p,
    keyLength: parameters.keyLength,
    salt: salt.toString('base64'),
    hash: key.toString('base64'),
  };
}

/** Recomputes the hash with the stored salt and parameters and compares in constant time. */
export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const key = await scryptAsync(
    password,
    Buffer.from(stored.salt, 'base64'),
    expected.length,
    scryptOptions(stored),
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}

export function isPasswordHash(value: JsonValue | undefined): value is PasswordHash & JsonValue {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, JsonValue>;
  return (
    record.algorithm === 'scrypt' &&
    typeof record.salt === 'string' &&
    typeof record.hash === 'string' &&
    [record.N, record.r, record.p, record.keyLength].every(
      (n) => typeof n === 'number' && Number.isSafeInteger(n) && n > 0,
    )
  );
}

/** How the sealing key is derived: scrypt's parameters and the salt, kept in the record. */
export interface SealParameters {
  algorithm: 'scrypt';
  N: number;
  r: number;
  p: number;
  /** base64; also the key's id in each sealed entry. */
  salt: string;
}

export function newSealParameters(
  parameters: Readonly<ScryptParameters> = SCRYPT_PARAMETERS,
): SealParameters {
  return {
    algorithm: 'scrypt',
    N: parameters.N,
    r: parameters.r,
    p: parameters.p,
    salt: randomBytes(parameters.saltLength).toString('base64'),
  };
}

/** The 32-byte AES-256-GCM key the API secrets are sealed with. */
export async function deriveSealKey(password: string, seal: SealParameters): Promise<SealKey> {
  const key = await scryptAsync(
    password,
    Buffer.from(seal.salt, 'base64'),
    32,
    scryptOptions(seal),
  );
  return { id: seal.salt, key };
}

export function isSealParameters(
  value: JsonValue | undefined,
): value is SealParameters & JsonValue {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, JsonValue>;
  return (
    record.algorithm === 'scrypt' &&
    typeof record.salt === 'string' &&
    record.salt !== '' &&
    [record.N, record.r, record.p].every(
      (n) => typeof n === 'number' && Number.isSafeInteger(n) && n > 0,
    )
  );
}
