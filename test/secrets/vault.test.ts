/**
 * The key vault on the real keychain (a private Secret Service session from scripts/test.sh): the
 * entries of one data folder under its install id, entries of an older version claimed by the
 * folder that has their profile, and the pairs sealed with a key so the keychain's own text holds
 * neither the API key nor its secret.
 */
import { randomBytes } from 'node:crypto';
import keytar from 'keytar';
import { afterAll, describe, expect, it } from 'vitest';
import {
  isSealed,
  KeytarSecretStore,
  KeyVault,
  SecretFormatError,
  SecretsSealedError,
  type SealKey,
} from '../../electron/secrets';

const keyringSession = process.env.SPOTFOLIO_KEYRING === '1';
const REAL_KEYCHAIN = keyringSession
  ? 'the key vault (real keychain)'
  : 'the key vault: SKIPPED, needs SPOTFOLIO_KEYRING=1 (run via scripts/test.sh)';

const pairA = { apiKey: 'vault-key-A-0123456789', secretKey: 'vault-secret-A-abcdefghij' };
const pairB = { apiKey: 'vault-key-B-0123456789', secretKey: 'vault-secret-B-abcdefghij' };
const sealKey = (id: string): SealKey => ({ id, key: randomBytes(32) });

describe.skipIf(!keyringSession)(REAL_KEYCHAIN, () => {
  const service = `Spotfolio-vault-${process.pid}`;
  const keychain = new KeytarSecretStore({ service });
  const raw = () => keytar.findCredentials(service);

  afterAll(async () => {
    for (const { account } of await raw()) await keytar.deletePassword(service, account);
  });

  it('keeps each data folder to its own entries, under its install id', async () => {
    const one = new KeyVault({ keychain, installId: 'install-one' });
    const two = new KeyVault({ keychain, installId: 'install-two' });
    await one.set('p1', pairA);
    await two.set('p1', pairB);
    expect((await raw()).map((c) => c.account).sort()).toEqual([
      'install-one/p1',
      'install-two/p1',
    ]);
    expect(await one.get('p1')).toEqual(pairA);
    expect(await two.entries()).toEqual([{ id: 'p1', secret: pairB }]);
    // Removing in one folder leaves the other's entry.
    expect(await two.delete('p1')).toBe(true);
    expect(await one.list()).toEqual(['p1']);
    expect(await two.list()).toEqual([]);
    await one.delete('p1');
  });

  it('claims an older entry (no install id) only where the record has its profile', async () => {
    await keytar.setPassword(service, 'legacy-profile', JSON.stringify(pairA));
    await keytar.setPassword(service, 'someone-elses', JSON.stringify(pairB));
    const vault = new KeyVault({ keychain, installId: 'install-claim' });
    expect(await vault.list()).toEqual([]);
    expect(await vault.claim(new Set(['legacy-profile', 'not-in-keychain']))).toEqual([
      'legacy-profile',
    ]);
    expect(await vault.get('legacy-profile')).toEqual(pairA);
    const accounts = (await raw()).map((c) => c.account).sort();
    expect(accounts).toEqual(['install-claim/legacy-profile', 'someone-elses']);
    await vault.delete('legacy-profile');
    await keytar.deletePassword(service, 'someone-elses');
  });

  it('seals the pairs: the keychain text holds neither key, and nothing opens without the key', async () => {
    const vault = new KeyVault({ keychain, installId: 'install-seal' });
    await vault.set('p1', pairA);
    await vault.set('p2', pairB);
    const key = sealKey('salt-1');
    expect(await vault.reseal(key)).toEqual({ rewritten: 2, unreadable: [] });
    for (const { account, password } of await raw()) {
      expect(account.startsWith('install-seal/')).toBe(true);
      expect(isSealed(password)).toBe(true);
      for (const text of [pairA.apiKey, pairA.secretKey, pairB.apiKey, pairB.secretKey]) {
        expect(password).not.toContain(text);
      }
    }
    expect(await vault.get('p1')).toEqual(pairA);

    // A restart: the vault knows a password is set but has no key until the lock gives it.
    const restarted = new KeyVault({ keychain, installId: 'install-seal' });
    restarted.requireSealing(true);
    await expect(restarted.get('p1')).rejects.toBeInstanceOf(SecretsSealedError);
    await expect(restarted.set('p3', pairA)).rejects.toBeInstanceOf(SecretsSealedError);
    expect((await raw()).map((c) => c.account)).not.toContain('install-seal/p3');
    // The wrong key (another password) opens nothing; an entry cannot pose as another profile's.
    restarted.useKey(sealKey('salt-1'));
    await expect(restarted.get('p1')).rejects.toBeInstanceOf(SecretFormatError);
    restarted.useKey(key);
    expect(await restarted.get('p2')).toEqual(pairB);
    const p1Text = (await keytar.getPassword(service, 'install-seal/p1'))!;
    await keytar.setPassword(service, 'install-seal/p2', p1Text);
    await expect(restarted.get('p2')).rejects.toBeInstanceOf(SecretFormatError);
    expect(await restarted.entries()).toEqual([
      { id: 'p1', secret: pairA },
      { id: 'p2', secret: null },
    ]);

    // A new password re-seals what it can read; removing it writes the pairs back unsealed.
    const next = sealKey('salt-2');
    expect(await restarted.reseal(next)).toEqual({ rewritten: 1, unreadable: ['p2'] });
    expect(await restarted.get('p1')).toEqual(pairA);
    await restarted.delete('p2');
    expect(await restarted.reseal(null)).toEqual({ rewritten: 1, unreadable: [] });
    expect(JSON.parse((await keytar.getPassword(service, 'install-seal/p1'))!)).toEqual(pairA);

    expect(await restarted.forgetAll()).toEqual(['p1']);
    expect(await raw()).toEqual([]);
  });
});
