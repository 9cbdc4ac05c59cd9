/**
 * Promises nobody waits for, on purpose, and the net under those that escape anyway. In the main
 * process an unhandled rejection ends the program (Node's default), and with it browser mode and
 * whatever the user was doing: so a task started in the background goes through inBackground(),
 * which logs its failure, and the entry points install keepServingOnUnexpectedErrors() for the
 * rest (lint: no-floating-promises, with `void` not accepted as an answer in electron/).
 */
import { describeError } from './logger';

export type ErrorLog = (message: string, error: unknown) => void;

/** Logs, and if the log itself fails writes to stderr: throwing here would end the app. */
function tell(log: ErrorLog, message: string, error: unknown): void {
  try {
    log(message, error);
  } catch {
    process.stderr.write(`${message}: ${describeError(error)}\n`);
  }
}

/** Runs `task` without waiting for it; a failure is logged as "<what> failed", never thrown. */
export function inBackground(task: Promise<unknown>, what: string, log: ErrorLog): void {
  task.catch((error: unknown) => tell(log, `${what} failed`, error));
}

/**
 * Logs an unhandled rejection or uncaught exception of the process and keeps serving: the failed
 * task is lost, but every write the app makes is a transaction of its own, so the record stays
 * whole, and ending the app would also drop what the user is in the middle of. Returns the
 * uninstaller.
 */
export function keepServingOnUnexpectedErrors(
  log: ErrorLog,
  target: NodeJS.EventEmitter = process,
): () => void {
  const onRejection = (reason: unknown) =>
    tell(log, 'A task nobody waited for failed (the app keeps running)', reason);
  const onException = (error: unknown) =>
    tell(log, 'An unexpected error (the app keeps running)', error);
  target.on('unhandledRejection', onRejection);
  target.on('uncaughtException', onException);
  return () => {
    target.off('unhandledRejection', onRejection);
    target.off('uncaughtException', onException);
  };
}

/** An ErrorLog for a part that logs plain lines. */
export function lineErrorLog(line: (text: string) => void): ErrorLog {
  return (message, error) => line(`${message}: ${describeError(error)}`);
}
