import { describe, expect, it } from 'vitest';
import { DemoSecretStore, SecretFormatError } from '../../electron/secrets';

describe('DemoSecretStore (the demo profile only)', () => {
  it('set, get, list, delete; returns copies', async () => {
    const store = new DemoSecretStore();
    await store.set('demo', { apiKey: 'sandbox-key', secretKey: 'sandbox-secret' });
    await store.set('demo-2', { apiKey: 'k2', secretKey: 's2' });
    const got = await store.get('demo');
    expect(got).toEqual({ apiKey: 'sandbox-key', secretKey: 'sandbox-secret' });
    got!.secretKey = 'changed';
    expect((await store.get('demo'))?.secretKey).toBe('sandbox-secret');
    expect(await store.list()).toEqual(['demo', 'demo-2']);
    expect(await store.delete('demo')).toBe(true);
    expect(await store.delete('demo')).toBe(false);
    expect(await store.get('demo')).toBeNull();
    await expect(store.set('demo', { apiKey: 'k', secretKey: ' ' })).rejects.toThrow(
      SecretFormatError,
    );
  });
});
