/**
 * The money journal's own file beside the record (`money-journal.jsonl`): each write to the
 * journal (an entry made, a step marked, a status set) also appends the entry as it now is, one
 * JSON line. A record restored from a backup lacks what the journal wrote after that backup: the
 * start merges the entries of this file that the backup does not have (or has older) back into
 * the record, and the session's start-up check reconciles them with the exchange at once, so
 * money in flight is never forgotten with the record it was written in.
 *
 * The file is appended with a plain write, committed to the OS before the request it describes
 * goes out, like the record's WAL: a killed process keeps it. At each start it is rewritten with
 * what still matters (see compact), so it stays small.
 */
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JournalStatus } from '../../shared/types';
import { ownerOnly } from './files';
import type { JournalEntryRow } from './journal';

export const JOURNAL_FILE = 'money-journal.jsonl';

/** How long a settled entry is kept in the file: longer than the backups a restore would use. */
export const JOURNAL_FILE_KEEP_MS = 90 * 24 * 60 * 60 * 1000;

/** Entries whose money may still be in flight or parked: kept in the file however old. */
const OPEN_STATUSES: ReadonlySet<JournalStatus> = new Set(['in-progress', 'unknown', 'stopped']);

export class JournalFile {
  constructor(readonly path: string) {}

  static in(dataDir: string): JournalFile {
    return new JournalFile(join(dataDir, JOURNAL_FILE));
  }

  /** Appends the entry as it now is. */
  append(entry: JournalEntryRow): void {
    appendFileSync(this.path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  }

  /**
   * The newest line of each entry, by id, in file order. A line that cannot be read (the last
   * one, torn by a crash mid-write) is skipped.
   */
  latest(): JournalEntryRow[] {
    if (!existsSync(this.path)) return [];
    const byId = new Map<number, JournalEntryRow>();
    for (const line of readFileSync(this.path, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      let entry: JournalEntryRow;
      try {
        entry = JSON.parse(line) as JournalEntryRow;
      } catch {
        continue;
      }
      if (typeof entry?.id !== 'number' || !Array.isArray(entry.steps)) continue;
      byId.delete(entry.id);
      byId.set(entry.id, entry);
    }
    return [...byId.values()];
  }

  /**
   * Rewrites the file with the newest line of each entry that still matters: unfinished or
   * stopped ones, those shown to the user, and any updated within JOURNAL_FILE_KEEP_MS. Written
   * under a temporary name and renamed, so a crash leaves the old file or the new one whole.
   */
  compact(now: number): void {
    if (!existsSync(this.path)) return;
    const kept = this.latest().filter(
      (entry) =>
        OPEN_STATUSES.has(entry.status) ||
        entry.notice ||
        entry.updatedAt >= now - JOURNAL_FILE_KEEP_MS,
    );
    const partial = `${this.path}.partial`;
    writeFileSync(partial, kept.map((entry) => `${JSON.stringify(entry)}\n`).join(''), {
      mode: 0o600,
    });
    ownerOnly(partial, 0o600);
    renameSync(partial, this.path);
  }
}
