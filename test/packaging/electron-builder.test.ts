/**
 * The packaging configuration as electron-builder itself reads and validates it: the fuses that
 * close the ways around the app's hardening are set, under the key names its schema knows.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import type { Configuration } from 'app-builder-lib';
import { DebugLogger } from 'builder-util/out/DebugLogger';

async function packagingConfig(): Promise<Configuration> {
  return getConfig(resolve(import.meta.dirname, '../..'), null, null);
}

describe('electron-builder configuration', () => {
  it('sets the fuses: no run-as-node, no NODE_OPTIONS, no inspector, asar only, cookies encrypted', async () => {
    const config = await packagingConfig();
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it("passes electron-builder's own schema, which rejects a misspelt fuse", async () => {
    const config = await packagingConfig();
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    const misspelt = {
      ...config,
      electronFuses: { ...config.electronFuses, runAsNodeDisabled: true },
    } as Configuration;
    await expect(validateConfiguration(misspelt, new DebugLogger(false))).rejects.toThrow(
      /electronFuses/,
    );
  });
});
