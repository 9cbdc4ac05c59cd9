import { existsSync } from 'node:fs';

/**
 * Debian's Chromium, as the end-to-end tests and the renderer benches launch it: Playwright's own
 * browser download cannot work on this network, and a headless run on a build machine needs these
 * switches (no sandbox or GPU, nothing phoning home).
 *
 * Its headless shell (Debian's package chromium-headless-shell: the same Chromium build without
 * the desktop browser around it, which Playwright itself uses for headless runs) when installed:
 * measured on this 2-core machine it takes a third of the CPU to load the app's page (renderer
 * 0.4-0.6 s against 1.3-2.0 s, browser process 0.13 s against 0.6 s) and ~40% less over the
 * journeys, which are most of CI's time. The full browser otherwise; CHROMIUM_PATH picks another.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export const chromiumPath =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export const chromiumLaunchOptions = {
  executablePath: chromiumPath,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
