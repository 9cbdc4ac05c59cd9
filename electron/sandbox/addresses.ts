/**
 * Addresses and transaction ids that look like those of their networks: bech32 for Bitcoin,
 * 0x and 40 hex digits for the EVM chains, base58check for Tron ("T...") and the XRP Ledger
 * ("r...", with its own alphabet), base58 public keys and signatures for Solana. Checksums are
 * real, so a wallet-side format check accepts them.
 *
 * Every value comes from a seeded random source handed in by the caller (the world's seed), never
 * from an account's keys: the same seed gives the same demo world, and nothing about a key can be
 * read from an address or a transaction id.
 */
import { createHash } from 'node:crypto';
import { SeededRandom } from './random';

const BITCOIN_BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const RIPPLE_BASE58 = 'rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz';
const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
/** Tron's address version byte: base58check of it and 20 bytes starts with "T". */
const TRON_VERSION = 0x41;
const XRP_ACCOUNT_VERSION = 0x00;

/** A seeded source for one purpose: `label` keeps, e.g., addresses and txIds from overlapping. */
export function seededSource(label: string): SeededRandom {
  return new SeededRandom(createHash('sha256').update(label).digest().readUInt32BE(0));
}

function randomBytes(random: SeededRandom, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = random.int(0, 255);
  return bytes;
}

/** Base58 (leading zero bytes become the alphabet's first character). */
export function base58(bytes: Buffer, alphabet = BITCOIN_BASE58): string {
  let value = BigInt('0x' + (bytes.length > 0 ? bytes.toString('hex') : '0'));
  let out = '';
  while (value > 0n) {
    out = alphabet[Number(value % 58n)]! + out;
    value /= 58n;
  }
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) out = alphabet[0]! + out;
  return out;
}

export function base58check(payload: Buffer, alphabet = BITCOIN_BASE58): string {
  const once = createHash('sha256').update(payload).digest();
  const checksum = createHash('sha256').update(once).digest().subarray(0, 4);
  return base58(Buffer.concat([payload, checksum]), alphabet);
}

function bech32Polymod(values: number[]): number {
  const generators = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let checksum = 1;
  for (const value of values) {
    const top = checksum >>> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ value;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) checksum ^= generators[i]!;
  }
  return checksum;
}

/** A segwit v0 address (BIP 173) of a 20-byte program: "bc1q" and 38 more characters. */
export function segwitV0Address(hrp: string, program: Buffer): string {
  const data = [0];
  let accumulator = 0;
  let bits = 0;
  for (const byte of program) {
    accumulator = (accumulator << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      data.push((accumulator >>> bits) & 31);
    }
  }
  if (bits > 0) data.push((accumulator << (5 - bits)) & 31);
  const expanded = [
    ...[...hrp].map((c) => c.charCodeAt(0) >>> 5),
    0,
    ...[...hrp].map((c) => c.charCodeAt(0) & 31),
  ];
  const polymod = bech32Polymod([...expanded, ...data, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (polymod >>> (5 * (5 - i))) & 31);
  return hrp + '1' + [...data, ...checksum].map((v) => BECH32_CHARSET[v]).join('');
}

/** An address of `network` ("BTC", "ETH", "BSC", "ARBITRUM", "TRX", "SOL", "XRP"). */
export function addressFor(network: string, random: SeededRandom): string {
  switch (network) {
    case 'BTC':
      return segwitV0Address('bc', randomBytes(random, 20));
    case 'TRX':
      return base58check(Buffer.concat([Buffer.from([TRON_VERSION]), randomBytes(random, 20)]));
    case 'XRP':
      return base58check(
        Buffer.concat([Buffer.from([XRP_ACCOUNT_VERSION]), randomBytes(random, 20)]),
        RIPPLE_BASE58,
      );
    case 'SOL':
      return base58(randomBytes(random, 32));
    default:
      return '0x' + randomBytes(random, 20).toString('hex');
  }
}

/** A transaction id of `network`: 64 hex digits (0x-prefixed on EVM chains), base58 on Solana. */
export function txIdFor(network: string, random: SeededRandom): string {
  switch (network) {
    case 'BTC':
    case 'TRX':
      return randomBytes(random, 32).toString('hex');
    case 'XRP':
      return randomBytes(random, 32).toString('hex').toUpperCase();
    case 'SOL':
      return base58(randomBytes(random, 64));
    default:
      return '0x' + randomBytes(random, 32).toString('hex');
  }
}

/** Where a block explorer shows `address`. */
export function explorerUrl(network: string, address: string): string {
  switch (network) {
    case 'BTC':
      return `https://mempool.space/address/${address}`;
    case 'TRX':
      return `https://tronscan.org/#/address/${address}`;
    case 'SOL':
      return `https://solscan.io/account/${address}`;
    case 'XRP':
      return `https://xrpscan.com/account/${address}`;
    case 'BSC':
      return `https://bscscan.com/address/${address}`;
    case 'ARBITRUM':
      return `https://arbiscan.io/address/${address}`;
    default:
      return `https://etherscan.io/address/${address}`;
  }
}
