/**
 * The app locks with the desktop session on Linux: the screensaver's ActiveChanged(true) on the
 * session bus (GNOME's and the freedesktop one), logind's Session.Lock and PrepareForSleep(true)
 * lock it; ActiveChanged(false) (the screen coming back) does not. Read from dbus-monitor's own
 * text, then on a real session bus (the test command's private D-Bus session) with a real app.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp, type SpotfolioApp } from '../../electron/app';
import { followScreenLock, signalReader, type ScreenLockFollower } from '../../electron/lock';
import { DemoSecretStore } from '../../electron/secrets';

/** dbus-monitor's lines, as it printed them on this machine's session bus. */
const printed = {
  nameAcquired: [
    'signal time=1795684397.372587 sender=org.freedesktop.DBus -> destination=:1.1 serial=2 path=/org/freedesktop/DBus; interface=org.freedesktop.DBus; member=NameAcquired',
    '   string ":1.1"',
  ],
  screenLocked: [
    'signal time=1795684398.369180 sender=:1.2 -> destination=(null destination) serial=2 path=/org/gnome/ScreenSaver; interface=org.gnome.ScreenSaver; member=ActiveChanged',
    '   boolean true',
  ],
  screenBack: [
    'signal time=1795684399.369180 sender=:1.2 -> destination=(null destination) serial=3 path=/org/gnome/ScreenSaver; interface=org.gnome.ScreenSaver; member=ActiveChanged',
    '   boolean false',
  ],
  sessionLock: [
    'signal time=1795684400.1 sender=:1.3 -> destination=(null destination) serial=9 path=/org/freedesktop/login1/session/_32; interface=org.freedesktop.login1.Session; member=Lock',
  ],
  sleeping: [
    'signal time=1795684401.1 sender=:1.3 -> destination=(null destination) serial=10 path=/org/freedesktop/login1; interface=org.freedesktop.login1.Manager; member=PrepareForSleep',
    '   boolean true',
  ],
  waking: [
    'signal time=1795684402.1 sender=:1.3 -> destination=(null destination) serial=11 path=/org/freedesktop/login1; interface=org.freedesktop.login1.Manager; member=PrepareForSleep',
    '   boolean false',
  ],
};

describe("reading dbus-monitor's text", () => {
  it('locks on a locked screen, a locked session and sleep, never on their ends', () => {
    const locked: string[] = [];
    const read = signalReader((member) => locked.push(member));
    for (const lines of [
      printed.nameAcquired,
      printed.screenBack,
      printed.screenLocked,
      printed.waking,
      printed.sessionLock,
      printed.sleeping,
    ]) {
      for (const line of lines) read(line);
    }
    expect(locked).toEqual(['ActiveChanged', 'Lock', 'PrepareForSleep']);
  });
});

const sessionBus = process.env.DBUS_SESSION_BUS_ADDRESS;

/** Sends the screensaver's ActiveChanged on the session bus, as GNOME or KDE do. */
function screensaver(active: boolean, iface = 'org.gnome.ScreenSaver'): void {
  const path = `/${iface.replace(/\./g, '/')}`;
  execFileSync('dbus-send', [
    '--session',
    '--type=signal',
    path,
    `${iface}.ActiveChanged`,
    `boolean:${active}`,
  ]);
}

describe.runIf(sessionBus)('on a real session bus', () => {
  let follower: ScreenLockFollower | undefined;
  let app: SpotfolioApp | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    follower?.stop();
    await app?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    follower = app = dataDir = undefined;
  });

  it('hears GNOME’s and the freedesktop screensaver lock, and not the screen coming back', async () => {
    const causes: string[] = [];
    const logged: string[] = [];
    follower = followScreenLock({
      onLocked: (cause) => causes.push(cause),
      log: (l) => logged.push(l),
    });
    await follower.ready;
    screensaver(false);
    screensaver(true);
    screensaver(true, 'org.freedesktop.ScreenSaver');
    await vi.waitFor(() => expect(causes).toHaveLength(2));
    expect(causes).toEqual(['session bus: ActiveChanged', 'session bus: ActiveChanged']);
    // A machine without a system bus (this one, in CI) is said, not failed on.
    expect(logged.every((line) => line.startsWith('The lock does not follow the system bus'))).toBe(
      true,
    );
  });

  it('locks the app with a password when the screen locks, and does nothing without one', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'spotfolio-screen-lock-'));
    const lines: string[] = [];
    app = await createApp({
      mode: 'browser',
      dataDir,
      secrets: new DemoSecretStore(),
      log: (line) => lines.push(line),
      followScreenLock: true,
    });
    const started = app;
    const locked = async () => (await started.handlers['lock.status']({})).locked;
    const heard = () => lines.filter((line) => line.includes('The desktop session locked'));
    // Sent until heard: the app's monitor listens a moment after the app has started.
    await vi.waitFor(
      () => {
        if (heard().length === 0) screensaver(true);
        expect(heard()).not.toEqual([]);
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(heard()[0]).toContain('no lock password is set');
    expect(await locked()).toBe(false);

    await started.handlers['lock.setPassword']({ password: 'correct horse 42' });
    expect(await locked()).toBe(false);
    screensaver(true);
    await vi.waitFor(() => expect(locked()).resolves.toBe(true), { timeout: 10_000 });
    expect(lines.some((line) => line.includes('Locked with the desktop session'))).toBe(true);
  });
});
