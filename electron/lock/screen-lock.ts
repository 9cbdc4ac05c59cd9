/**
 * The desktop session's own lock, followed on Linux: when the screen locks (the screensaver's
 * ActiveChanged(true) on the session bus, GNOME's or the freedesktop one KDE and others send), the
 * session is locked through logind (Session.Lock, `loginctl lock-session`), or the machine
 * prepares to sleep (Manager.PrepareForSleep(true)), Spotfolio locks too: someone else may be at
 * the keyboard next. Electron reports the screen lock only on macOS and Windows, and browser mode
 * has no Electron at all, so both modes follow D-Bus here, through `dbus-monitor` (part of D-Bus
 * itself), which prints each matching signal as text. Where a bus or the program is missing, the
 * log says the lock does not follow that bus, and nothing else changes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export type Bus = 'session' | 'system';

/** The signals that mean "the person may have walked away", per bus. */
const MATCHES: Record<Bus, string[]> = {
  session: [
    "type='signal',interface='org.gnome.ScreenSaver',member='ActiveChanged'",
    "type='signal',interface='org.freedesktop.ScreenSaver',member='ActiveChanged'",
  ],
  system: [
    "type='signal',interface='org.freedesktop.login1.Session',member='Lock'",
    "type='signal',interface='org.freedesktop.login1.Manager',member='PrepareForSleep'",
  ],
};

/** Members whose first argument says whether the lock (or the sleep) is starting. */
const WITH_FLAG = new Set(['ActiveChanged', 'PrepareForSleep']);

export interface ScreenLockOptions {
  /** Called each time the session locks or the machine goes to sleep; `cause` is for the log. */
  onLocked(cause: string): void;
  log: (line: string) => void;
  /** Default: dbus-monitor on the given bus. */
  monitor?: (bus: Bus, matches: string[]) => ChildProcess;
}

export interface ScreenLockFollower {
  /** Resolves once each bus's monitor listens (or has given up): signals sent after it count. */
  ready: Promise<void>;
  stop(): void;
}

function dbusMonitor(bus: Bus, matches: string[]): ChildProcess {
  return spawn('dbus-monitor', [`--${bus}`, ...matches], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Reads dbus-monitor's text: a `signal ... member=X` header line, then its arguments indented
 * below it ("   boolean true"). Calls `locked` for logind's Lock, and for an ActiveChanged or
 * PrepareForSleep whose flag is true.
 */
export function signalReader(locked: (member: string) => void): (line: string) => void {
  let waitingFlag: string | null = null;
  return (line) => {
    if (line.startsWith('signal ')) {
      const member = /member=(\w+)/.exec(line)?.[1] ?? '';
      waitingFlag = null;
      if (member === 'Lock' && line.includes('interface=org.freedesktop.login1.Session')) {
        locked(member);
      } else if (WITH_FLAG.has(member)) {
        waitingFlag = member;
      }
      return;
    }
    if (waitingFlag === null) return;
    const flag = /^\s+boolean (true|false)/.exec(line)?.[1];
    if (flag === undefined) return;
    if (flag === 'true') locked(waitingFlag);
    waitingFlag = null;
  };
}

export function followScreenLock(options: ScreenLockOptions): ScreenLockFollower {
  const monitor = options.monitor ?? dbusMonitor;
  const children: ChildProcess[] = [];
  let stopped = false;
  const watch = (bus: Bus): Promise<void> =>
    new Promise((listening) => {
      let over = false;
      const gaveUp = (why: string) => {
        if (!stopped && !over) options.log(`The lock does not follow the ${bus} bus: ${why}`);
        over = true;
        listening();
      };
      let child: ChildProcess;
      try {
        child = monitor(bus, MATCHES[bus]);
      } catch (error) {
        gaveUp(String(error));
        return;
      }
      children.push(child);
      const read = signalReader((member) => options.onLocked(`${bus} bus: ${member}`));
      // dbus-monitor's first line is its own connection's NameAcquired, printed once it has
      // become a monitor: from then on it sees what is sent.
      createInterface({ input: child.stdout! }).on('line', (line) => {
        listening();
        read(line);
      });
      const stderr: string[] = [];
      child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
      child.once('error', (error) => gaveUp(error.message));
      child.once('exit', (code) => {
        const why = stderr.join('').trim().split('\n')[0];
        gaveUp(`dbus-monitor ended with ${code}${why ? ` (${why})` : ''}`);
      });
    });
  const ready = Promise.all([watch('session'), watch('system')]).then(() => undefined);
  return {
    ready,
    stop() {
      stopped = true;
      for (const child of children) child.kill();
    },
  };
}
