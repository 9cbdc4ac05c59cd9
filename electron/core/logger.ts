/**
 * What every part of the main process logs through. The one implementation (createLogger in
 * electron/log.ts) strips every known secret from each line before it reaches the sink; parts
 * only ever see this interface, so nothing writes a log line around it.
 */

export type LogLevel = 'info' | 'warn' | 'error';

/** The secrets to strip from every log line: each profile's API key and secret once known. */
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
