/**
 * Answers of the exchange kept whole (the cache's exchange_answers): the account's permissions,
 * the markets' assets, and the market screens' last symbols, candles and book, served when the
 * exchange cannot be reached. Each kind names the version of the shape it writes and the zod
 * schema of that shape (the wire schemas of exchange/wire.ts where the answer is the wire's). A
 * row is trusted only when both match: one of another version, or of a shape the schema refuses
 * (written by another version of the app, or damaged), reads as absent, so the caller fetches it
 * again instead of handing it on.
 */
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import { integerMs, StoreInputError } from './util';

/** One kind of kept answer: its name, the version of its shape, and the shape. */
export interface AnswerKind<T> {
  readonly name: string;
  /** Raised whenever the shape written changes: rows of another version are not read. */
  readonly version: number;
  readonly schema: z.ZodType<T>;
}

export interface KeptAnswer<T> {
  answer: T;
  fetchedAt: number;
}

export class AnswersRepository {
  private readonly getStatement;
  private readonly putStatement;
  private readonly deleteStatement;

  constructor(db: Database.Database) {
    this.getStatement = db.prepare<
      [string, string, string],
      { version: number; answer: string; fetchedAt: number }
    >(
      `SELECT version, answer, fetched_at AS fetchedAt FROM exchange_answers
         WHERE profile_id = ? AND kind = ? AND key = ?`,
    );
    this.putStatement = db.prepare<[string, string, string, number, string, number]>(
      `INSERT INTO exchange_answers (profile_id, kind, key, version, answer, fetched_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (profile_id, kind, key) DO UPDATE SET version = excluded.version,
           answer = excluded.answer, fetched_at = excluded.fetched_at`,
    );
    this.deleteStatement = db.prepare<[string, string, string]>(
      'DELETE FROM exchange_answers WHERE profile_id = ? AND kind = ? AND key = ?',
    );
  }

  /**
   * The answer kept under `key`, checked against the kind's version and schema; null when none
   * is kept or the one kept is not of this version and shape.
   */
  get<T>(profileId: string, kind: AnswerKind<T>, key = ''): KeptAnswer<T> | null {
    const row = this.getStatement.get(profileId, kind.name, key);
    if (!row || row.version !== kind.version) return null;
    let value: unknown;
    try {
      value = JSON.parse(row.answer);
    } catch {
      return null;
    }
    const parsed = kind.schema.safeParse(value);
    return parsed.success ? { answer: parsed.data, fetchedAt: row.fetchedAt } : null;
  }

  /** Keeps `answer` under `key`, replacing the one kept; it must be of the kind's shape. */
  put<T>(profileId: string, kind: AnswerKind<T>, answer: T, fetchedAt: number, key = ''): void {
    integerMs(fetchedAt, 'fetchedAt');
    const parsed = kind.schema.safeParse(answer);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const at = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
      throw new StoreInputError(
        `${kind.name} answer does not have the shape of version ${kind.version}${at}: ${issue?.message ?? 'invalid'}`,
      );
    }
    const text = JSON.stringify(answer);
    if (text === undefined) throw new StoreInputError(`${kind.name} answer is not JSON`);
    this.putStatement.run(profileId, kind.name, key, kind.version, text, fetchedAt);
  }

  delete(profileId: string, kind: AnswerKind<unknown>, key = ''): boolean {
    return this.deleteStatement.run(profileId, kind.name, key).changes > 0;
  }
}
