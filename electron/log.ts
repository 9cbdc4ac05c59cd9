/**
 * The app's logger: one line per entry, timestamped, and passed through redact() with every
 * secret the app knows of (each profile's API key and secret key once loaded or entered), so a
 * secret that slipped into an error message (a signed URL, a key in an exception) never reaches
 * the sink. Every part of the app logs through this; nothing writes secrets anywhere directly.
 */
import { redact } from './secrets/redact';

export type LogLevel = 'info' | 'warn' | 'error';

/** The secrets to strip from every log line. */
export class KnownSecrets {
  private readonly values = new Set<string>();

  add(...secrets: string[]): void {
    for (const secret of secrets) if (secret) this.values.add(secret);
  }

  list(): string[] {
    return [...this.values];
  }
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
  /** A plain `(line) => void` for parts that take a line sink (sync, streams). */
  readonly line: (line: string) => void;
  readonly secrets: KnownSecrets;
}

/** The error's message and, for internal failures, its stack and cause, on one entry. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const parts = [error.stack ?? `${error.name}: ${error.message}`];
    if (error.cause !== undefined) parts.push(`caused by: ${describeError(error.cause)}`);
    return parts.join('\n');
  }
  return String(error);
}

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
