/** The sandbox's network-shaped addresses: real encodings, checked against published vectors. */
import { describe, expect, it } from 'vitest';
import {
  addressFor,
  base58,
  base58check,
  seededSource,
  segwitV0Address,
  txIdFor,
} from '../../electron/sandbox/addresses';

describe('sandbox addresses', () => {
  it('encodes segwit v0 addresses as BIP 173 does', () => {
    // BIP 173's P2WPKH example.
    const program = Buffer.from('751e76e8199196d454941c45d1b3a323f1433bd6', 'hex');
    expect(segwitV0Address('bc', program)).toBe('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
  });

  it('encodes base58 and base58check as Bitcoin does', () => {
    expect(base58(Buffer.from('hello world'))).toBe('StV1DL6CwTryKyV');
    expect(base58(Buffer.from([0, 0, 1]))).toBe('112');
    // The P2PKH address of an all-zero key hash.
    expect(base58check(Buffer.alloc(21))).toBe('1111111111111111111114oLvT2');
  });

  it('gives the same values for the same seed label, other values for another', () => {
    const first = addressFor('SOL', seededSource('label:1'));
    expect(addressFor('SOL', seededSource('label:1'))).toBe(first);
    expect(addressFor('SOL', seededSource('label:2'))).not.toBe(first);
    expect(txIdFor('SOL', seededSource('label:1'))).toMatch(/^[1-9A-HJ-NP-Za-km-z]{86,88}$/);
    for (let i = 0; i < 20; i++) {
      expect(addressFor('TRX', seededSource(`tron:${i}`))).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
      expect(addressFor('XRP', seededSource(`xrp:${i}`))).toMatch(/^r[1-9A-HJ-NP-Za-km-z]{24,34}$/);
    }
  });
});
