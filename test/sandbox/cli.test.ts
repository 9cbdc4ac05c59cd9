import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { SANDBOX_USAGE } from '../../electron/sandbox/cli-args';
import { bundledScript } from '../support/child-script';
import { hmacHex } from './helpers';

// The CLI runs as one node process from its bundle. Through tsx, a SIGTERM reached tsx's own
// process first, which relays it to the script's; on a loaded machine the relay sometimes ended
// the script with the signal (exit 143) before its handler ran.
const cli = bundledScript('electron/sandbox/cli.ts');

describe('npm run sandbox (cli.ts)', () => {
  it('prints WorldInfo as its first line, serves requests and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [cli(), '--port', '0', '--no-simulation'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const firstLine = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
    });
    const world = JSON.parse(firstLine);
    expect(world.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(world.streamUrl).toBe(world.baseUrl.replace('http', 'ws') + '/ws');
    expect(world.accounts.map((a: { role: string }) => a.role)).toEqual(['parent', 'sub', 'sub']);
    const key = world.accounts[0].keys[0];
    const query = `timestamp=${Date.now()}`;
    const response = await fetch(
      `${world.baseUrl}/sapi/v1/funds?${query}&signature=${hmacHex(key.secretKey, query)}`,
      { headers: { 'X-API-KEY': key.apiKey } },
    );
    expect(response.status).toBe(200);
    expect((await response.json()).length).toBeGreaterThan(0);
    const exitCode = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    child.kill('SIGTERM');
    expect(await exitCode).toBe(0);
  });

  it('--help prints every option and exits 0 without starting; an unknown option points to it', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [cli(), ...args]);
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.once('exit', (code) => resolve({ code, stdout, stderr }));
      });
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe(SANDBOX_USAGE);
    for (const option of [
      '--port',
      '--host',
      '--seed',
      '--no-simulation',
      '--no-rate-limits',
      '--empty',
    ])
      expect(help.stdout).toContain(option);
    const unknown = await run(['--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('sandbox: unknown option --bogus (--help lists the options)\n');
  });
});
