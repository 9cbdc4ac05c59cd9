/** Small helpers shared by the repositories: input checks, paging bounds, LIKE escaping. */
import type Database from 'better-sqlite3';
import { isSignedDecimalText } from '../../shared/decimal';
import type { PageResult } from './types';

/** Bad input to a repository (a malformed amount, time or paging argument), named precisely. */
export class StoreInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreInputError';
  }
}

/** Returns `value` when it is (signed) decimal text, else throws naming `what`. */
export function checkDecimalText(value: unknown, what: string): string {
  if (!isSignedDecimalText(value)) {
    throw new StoreInputError(`${what} must be a decimal string, got ${JSON.stringify(value)}`);
  }
  return value;
}

export function checkOptionalDecimalText(value: unknown, what: string): string | null {
  return value === undefined || value === null ? null : checkDecimalText(value, what);
}

export function integer(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new StoreInputError(`${what} must be an integer, got ${JSON.stringify(value)}`);
  }
  return value;
}

export function integerMs(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new StoreInputError(`${what} must be an integer (ms), got ${JSON.stringify(value)}`);
  }
  return value;
}

const WIRE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** 'YYYY-MM-DD HH:MM:SS' (UTC, as withdraw records carry it) or ms already -> ms. */
export function wireTimeMs(value: string | number, what: string): number {
  if (typeof value === 'number') return integerMs(value, what);
  // Fixed positions once the shape is checked: this runs for every record of a backfill.
  if (typeof value === 'string' && WIRE_TIME.test(value)) {
    const year = Number(value.slice(0, 4));
    const month = Number(value.slice(5, 7));
    const day = Number(value.slice(8, 10));
    const hour = Number(value.slice(11, 13));
    const minute = Number(value.slice(14, 16));
    const second = Number(value.slice(17, 19));
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    const monthDays = month === 2 && !leap ? 28 : (DAYS_IN_MONTH[month - 1] ?? 0);
    if (day >= 1 && day <= monthDays && hour < 24 && minute < 60 && second < 60) {
      return Date.UTC(year, month - 1, day, hour, minute, second);
    }
  }
  throw new StoreInputError(`${what} must be 'YYYY-MM-DD HH:MM:SS', got ${JSON.stringify(value)}`);
}

/** true/false, also the strings "true"/"false" one sample of the interface shows. */
export function booleanLike(value: unknown, what: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const lower = value.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
  }
  throw new StoreInputError(`${what} must be a boolean, got ${JSON.stringify(value)}`);
}

const INTEGER_DIGITS = 30;
const FRACTION_DIGITS = 18;

/**
 * A fixed-width text that sorts (as text) in the same order as the non-negative decimal amount,
 * so ORDER BY can use an index and stay exact: integer part left-padded, fraction right-padded.
 * Fractions beyond 18 digits only affect ties in the order, never the stored amount.
 */
export function amountSortKey(amount: string, what: string): string {
  const text = checkDecimalText(amount, what);
  if (text.startsWith('-')) {
    throw new StoreInputError(`${what} must not be negative, got ${JSON.stringify(amount)}`);
  }
  const [whole = '0', fraction = ''] = text.split('.');
  const trimmed = whole.replace(/^0+(?=\d)/, '');
  if (trimmed.length > INTEGER_DIGITS) {
    throw new StoreInputError(`${what} has more than ${INTEGER_DIGITS} integer digits`);
  }
  return (
    trimmed.padStart(INTEGER_DIGITS, '0') +
    '.' +
    fraction.slice(0, FRACTION_DIGITS).padEnd(FRACTION_DIGITS, '0')
  );
}

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

export function pageBounds(offset: unknown, limit: unknown): { offset: number; limit: number } {
  const resolvedOffset = offset ?? 0;
  const resolvedLimit = limit ?? DEFAULT_PAGE_SIZE;
  if (
    typeof resolvedOffset !== 'number' ||
    !Number.isSafeInteger(resolvedOffset) ||
    resolvedOffset < 0
  ) {
    throw new StoreInputError(`offset must be an integer >= 0, got ${JSON.stringify(offset)}`);
  }
  if (
    typeof resolvedLimit !== 'number' ||
    !Number.isSafeInteger(resolvedLimit) ||
    resolvedLimit < 1 ||
    resolvedLimit > MAX_PAGE_SIZE
  ) {
    throw new StoreInputError(
      `limit must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${JSON.stringify(limit)}`,
    );
  }
  return { offset: resolvedOffset, limit: resolvedLimit };
}

export function direction(value: unknown): 'ASC' | 'DESC' {
  if (value === undefined || value === 'desc') return 'DESC';
  if (value === 'asc') return 'ASC';
  throw new StoreInputError(`direction must be 'asc' or 'desc', got ${JSON.stringify(value)}`);
}

/** A LIKE pattern matching `text` as a substring, with % _ and \ taken literally (ESCAPE '\'). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Appends the inclusive time bounds of a filter to a WHERE clause under construction. */
export function addTimeRange(
  where: string[],
  params: unknown[],
  column: string,
  from: number | undefined,
  to: number | undefined,
): void {
  if (from !== undefined) {
    where.push(`${column} >= ?`);
    params.push(integerMs(from, 'from'));
  }
  if (to !== undefined) {
    where.push(`${column} <= ?`);
    params.push(integerMs(to, 'to'));
  }
}

/** Prepared statements keyed by their SQL, so a filter shape is compiled once per repository. */
export class StatementCache<S> {
  private readonly statements = new Map<string, S>();
  constructor(private readonly prepare: (sql: string) => S) {}
  get(sql: string): S {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/**
 * A table's filtered, ordered, paged reads: one page of rows and the count of every row the filter
 * matches, so a list can say "41-60 of 1,204". The statements are prepared once per filter shape.
 */
export class PagedReads<R> {
  private readonly pages: StatementCache<Database.Statement<unknown[], R>>;
  private readonly counts: StatementCache<Database.Statement<unknown[], { n: number }>>;

  constructor(
    db: Database.Database,
    private readonly table: string,
    private readonly columns: string,
  ) {
    this.pages = new StatementCache((sql) => db.prepare<unknown[], R>(sql));
    this.counts = new StatementCache((sql) => db.prepare<unknown[], { n: number }>(sql));
  }

  /** `where` and `params` as the filter built them; `orderBy` ends with a unique column. */
  read(
    where: readonly string[],
    params: readonly unknown[],
    orderBy: string,
    page: { offset: number; limit: number },
  ): PageResult<R> {
    const whereSql = where.join(' AND ');
    const rows = this.pages
      .get(
        `SELECT ${this.columns} FROM ${this.table} WHERE ${whereSql}
         ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
      )
      .all(...params, page.limit, page.offset);
    const total =
      this.counts.get(`SELECT count(*) AS n FROM ${this.table} WHERE ${whereSql}`).get(...params)
        ?.n ?? 0;
    return { rows, total };
  }
}
