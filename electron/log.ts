/**
 * The app's logger: one line per entry, timestamped, and passed through redact() with every
 * secret the app knows of (each profile's API key and secret key once loaded or entered), so a
 * secret that slipped into an error message (a signed URL, a key in an exception) never reaches
 * the sink. Every part of the app logs through this; nothing writes secrets anywhere directly.
 */
import { describeError, KnownSecrets, type Logger, type LogLevel } from './core/logger';
import { redact } from './secrets/redact';

export function createLogger(
  sink: (line: string) => void = (line) => console.log(line),
  now: () => number = Date.now,
  secrets: KnownSecrets = new KnownSecrets(),
): Logger {
  const write = (level: LogLevel, message: string): void => {
    const line = `${new Date(now()).toISOString()} ${level.toUpperCase()} ${message}`;
    sink(redact(line, secrets.list()));
  };
  return {
    info: (message) => write('info', message),
    warn: (message) => write('warn', message),
    error: (message, error) =>
      write('error', error === undefined ? message : `${message}: ${describeError(error)}`),
    line: (line) => write('info', line),
    secrets,
  };
}
