import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./fake-electron')).electron);

import { appEntryUrl, serveAppRequest } from '../../electron/shell/protocol';
import { desktopContentSecurityPolicy } from '../../shared/csp';

describe('app:// protocol', () => {
  let base: string;
  let rendererDir: string;

  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'spotfolio-protocol-'));
    rendererDir = join(base, 'renderer');
    mkdirSync(join(rendererDir, 'assets'), { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(rendererDir, 'assets', 'main.js'), 'export {}');
    writeFileSync(join(base, 'secret.txt'), 'top secret');
  });

  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('serves the entry page with the CSP and the right type', async () => {
    const res = await serveAppRequest(rendererDir, appEntryUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(desktopContentSecurityPolicy);
    expect(await res.text()).toContain('<title>app</title>');
    const script = await serveAppRequest(rendererDir, 'app://spotfolio/assets/main.js?v=1');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('never serves a file outside the renderer folder', async () => {
    for (const url of [
      'app://spotfolio/../secret.txt',
      'app://spotfolio/%2e%2e/secret.txt',
      'app://spotfolio/assets/..%2f..%2fsecret.txt',
      'app://spotfolio/..%5csecret.txt',
      'app://other/index.html',
    ]) {
      const res = await serveAppRequest(rendererDir, url);
      expect(res.status, url).toBeGreaterThanOrEqual(400);
      expect(await res.text(), url).not.toContain('top secret');
    }
  });
});
