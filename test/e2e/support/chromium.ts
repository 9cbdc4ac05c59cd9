/**
 * Debian's Chromium, as the end-to-end tests and the renderer benches launch it: Playwright's own
 * browser download cannot work on this network, and a headless run on a build machine needs these
 * switches (no sandbox or GPU, nothing phoning home).
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
