/**
 * The money journal, in the record (migration 3): each transfer (one leg, or two through the main
 * account) and each order the app sends is written here before its first request, and each step
 * is updated as it completes. A process that dies half-way therefore leaves the entry unfinished,
 * and the next start reconciles it with the exchange instead of forgetting it.
 *
 * The writes are single statements or one transaction each, committed before the request they
 * describe goes out: a SIGKILL after the commit keeps them (WAL in the OS's page cache). Each is
 * also appended to the journal's own file (journal-file.ts), from which a record restored from an
 * older backup gets back the entries it lacks (mergeFromFile).
 */
import type Database from 'better-sqlite3';
import { JOURNAL_STATUSES, type JournalStatus, type JournalStepStatus } from '../../shared/types';
import type { JournalFile } from './journal-file';
import { checkDecimalText, integerMs, StoreInputError } from './util';

export type JournalKind = 'transfer' | 'order';

/** What an order entry remembers of the order, to look it up and to describe it. */
export interface JournalOrder {
  symbol: string;
  side: string;
  type: string;
  price: string;
  stopPrice?: string;
}

export interface JournalStepRow {
  seq: number;
  fromEmail: string | null;
  toEmail: string | null;
  clientOrderId: string | null;
  status: JournalStepStatus;
  /** The exchange's time (as estimated) when the step was marked sending. */
  windowFrom: number | null;
  /** The exchange's txnId or orderId, once known. */
  ref: string | null;
  message: string | null;
  updatedAt: number;
}

export interface JournalEntryRow {
  id: number;
  profileId: string;
  kind: JournalKind;
  /** The asset of a transfer, the symbol of an order. */
  asset: string;
  /** The amount of a transfer, the quantity of an order. */
  amount: string;
  fromEmail: string | null;
  toEmail: string | null;
  /** The main account of a sub-to-sub move. */
  viaEmail: string | null;
  order: JournalOrder | null;
  status: JournalStatus;
  fundsAt: string | null;
  facts: string | null;
  /** Settled by a check after a restart: shown to the user until dismissed. */
  notice: boolean;
  createdAt: number;
  updatedAt: number;
  steps: JournalStepRow[];
}

export interface NewJournalStep {
  fromEmail?: string;
  toEmail?: string;
  clientOrderId?: string;
}

export interface NewJournalEntry {
  profileId: string;
  kind: JournalKind;
  asset: string;
  amount: string;
  fromEmail?: string;
  toEmail?: string;
  viaEmail?: string;
  order?: JournalOrder;
  steps: NewJournalStep[];
  createdAt: number;
}

export interface JournalStepPatch {
  status: JournalStepStatus;
  windowFrom?: number;
  ref?: string;
  message?: string;
}

export interface JournalStatusPatch {
  status: JournalStatus;
  fundsAt?: string | null;
  facts?: string | null;
  notice?: boolean;
}

/** Entries not settled yet: being sent, or waiting to be checked with the exchange. */
export const UNSETTLED_STATUSES: readonly JournalStatus[] = ['in-progress', 'unknown'];
const STEP_STATUSES = new Set<JournalStepStatus>(['pending', 'sending', 'done', 'not-made']);
const STATUSES = new Set<JournalStatus>(JOURNAL_STATUSES);

interface EntryDbRow {
  id: number;
  profile_id: string;
  kind: JournalKind;
  asset: string;
  amount: string;
  from_email: string | null;
  to_email: string | null;
  via_email: string | null;
  order_json: string | null;
  status: JournalStatus;
  funds_at: string | null;
  facts: string | null;
  notice: number;
  created_at: number;
  updated_at: number;
}

interface StepDbRow {
  entry_id: number;
  seq: number;
  from_email: string | null;
  to_email: string | null;
  client_order_id: string | null;
  status: JournalStepStatus;
  window_from: number | null;
  ref: string | null;
  message: string | null;
  updated_at: number;
}

const toStep = (row: StepDbRow): JournalStepRow => ({
  seq: row.seq,
  fromEmail: row.from_email,
  toEmail: row.to_email,
  clientOrderId: row.client_order_id,
  status: row.status,
  windowFrom: row.window_from,
  ref: row.ref,
  message: row.message,
  updatedAt: row.updated_at,
});

export class JournalRepository {
  private readonly insertEntry;
  private readonly insertStep;
  private readonly updateStep;
  private readonly updateStatus;
  private readonly entryById;
  private readonly stepsOf;
  private readonly entriesByStatus;
  private readonly visibleEntries;
  private readonly refsOfProfile;

  constructor(
    private readonly db: Database.Database,
    /** Where each write is appended as well; none for a store that keeps no file (tools). */
    private readonly file?: JournalFile,
  ) {
    this.insertEntry = db.prepare(
      `INSERT INTO money_journal (profile_id, kind, asset, amount, from_email, to_email, via_email,
         order_json, status, created_at, updated_at)
       VALUES (@profileId, @kind, @asset, @amount, @fromEmail, @toEmail, @viaEmail, @orderJson,
         'in-progress', @createdAt, @createdAt)`,
    );
    this.insertStep = db.prepare(
      `INSERT INTO money_journal_steps (entry_id, seq, from_email, to_email, client_order_id,
         status, updated_at)
       VALUES (@entryId, @seq, @fromEmail, @toEmail, @clientOrderId, 'pending', @at)`,
    );
    this.updateStep = db.prepare(
      `UPDATE money_journal_steps SET status = @status,
         window_from = coalesce(@windowFrom, window_from), ref = coalesce(@ref, ref),
         message = @message, updated_at = @at
       WHERE entry_id = @entryId AND seq = @seq`,
    );
    this.updateStatus = db.prepare(
      `UPDATE money_journal SET status = @status, funds_at = @fundsAt, facts = @facts,
         notice = @notice, updated_at = @at WHERE id = @id`,
    );
    this.entryById = db.prepare<[number], EntryDbRow>('SELECT * FROM money_journal WHERE id = ?');
    this.stepsOf = db.prepare<[number], StepDbRow>(
      'SELECT * FROM money_journal_steps WHERE entry_id = ? ORDER BY seq',
    );
    this.entriesByStatus = db.prepare<[string, string], EntryDbRow>(
      `SELECT * FROM money_journal WHERE profile_id = ?
         AND status IN (SELECT value FROM json_each(?)) ORDER BY id`,
    );
    this.visibleEntries = db.prepare<[string], EntryDbRow>(
      `SELECT * FROM money_journal WHERE profile_id = ?
         AND (status IN ('in-progress', 'unknown', 'stopped') OR notice = 1) ORDER BY id DESC`,
    );
    this.refsOfProfile = db.prepare<[string], { ref: string }>(
      `SELECT s.ref AS ref FROM money_journal_steps s JOIN money_journal j ON j.id = s.entry_id
       WHERE j.profile_id = ? AND s.ref IS NOT NULL`,
    );
  }

  /** Writes an entry and its steps (all pending) in one transaction; returns it. */
  create(entry: NewJournalEntry): JournalEntryRow {
    checkDecimalText(entry.amount, 'journal amount');
    integerMs(entry.createdAt, 'journal time');
    if (entry.kind !== 'transfer' && entry.kind !== 'order') {
      throw new StoreInputError(`journal kind ${JSON.stringify(entry.kind)} is unknown`);
    }
    if (entry.steps.length === 0) throw new StoreInputError('a journal entry needs a step');
    const id = this.db.transaction(() => {
      const { lastInsertRowid } = this.insertEntry.run({
        profileId: entry.profileId,
        kind: entry.kind,
        asset: entry.asset,
        amount: entry.amount,
        fromEmail: entry.fromEmail ?? null,
        toEmail: entry.toEmail ?? null,
        viaEmail: entry.viaEmail ?? null,
        orderJson: entry.order ? JSON.stringify(entry.order) : null,
        createdAt: entry.createdAt,
      });
      const entryId = Number(lastInsertRowid);
      entry.steps.forEach((step, index) => {
        this.insertStep.run({
          entryId,
          seq: index + 1,
          fromEmail: step.fromEmail ?? null,
          toEmail: step.toEmail ?? null,
          clientOrderId: step.clientOrderId ?? null,
          at: entry.createdAt,
        });
      });
      return entryId;
    })();
    return this.appended(id);
  }

  /** Updates one step (a null/undefined windowFrom or ref keeps the one recorded). */
  markStep(entryId: number, seq: number, patch: JournalStepPatch, at: number): void {
    if (!STEP_STATUSES.has(patch.status)) {
      throw new StoreInputError(`journal step status ${JSON.stringify(patch.status)} is unknown`);
    }
    const { changes } = this.updateStep.run({
      entryId,
      seq,
      status: patch.status,
      windowFrom: patch.windowFrom ?? null,
      ref: patch.ref ?? null,
      message: patch.message ?? null,
      at: integerMs(at, 'journal time'),
    });
    if (changes !== 1) throw new StoreInputError(`journal entry ${entryId} has no step ${seq}`);
    this.appended(entryId);
  }

  /** Sets the entry's status and facts; unnamed fields keep their value. */
  setStatus(entryId: number, patch: JournalStatusPatch, at: number): JournalEntryRow {
    if (!STATUSES.has(patch.status)) {
      throw new StoreInputError(`journal status ${JSON.stringify(patch.status)} is unknown`);
    }
    const current = this.entryById.get(entryId);
    if (!current) throw new StoreInputError(`journal entry ${entryId} does not exist`);
    this.updateStatus.run({
      id: entryId,
      status: patch.status,
      fundsAt: patch.fundsAt === undefined ? current.funds_at : patch.fundsAt,
      facts: patch.facts === undefined ? current.facts : patch.facts,
      notice: (patch.notice === undefined ? current.notice === 1 : patch.notice) ? 1 : 0,
      at: integerMs(at, 'journal time'),
    });
    return this.appended(entryId);
  }

  /**
   * After a restore: writes back the entries of the journal's file that the record lacks or
   * holds in an older state, with their ids and steps. An entry whose profile the record does
   * not have cannot be written (its rows belong to a profile); it stays in the file and is
   * counted. One transaction.
   */
  mergeFromFile(): { kept: JournalEntryRow[]; withoutProfile: JournalEntryRow[] } {
    const kept: JournalEntryRow[] = [];
    const withoutProfile: JournalEntryRow[] = [];
    const entries = this.file?.latest() ?? [];
    if (entries.length === 0) return { kept, withoutProfile };
    const profileExists = this.db.prepare<[string], { one: number }>(
      'SELECT 1 AS one FROM profiles WHERE id = ?',
    );
    const replaceEntry = this.db.prepare(
      `INSERT OR REPLACE INTO money_journal (id, profile_id, kind, asset, amount, from_email,
         to_email, via_email, order_json, status, funds_at, facts, notice, created_at, updated_at)
       VALUES (@id, @profileId, @kind, @asset, @amount, @fromEmail, @toEmail, @viaEmail,
         @orderJson, @status, @fundsAt, @facts, @notice, @createdAt, @updatedAt)`,
    );
    const deleteSteps = this.db.prepare('DELETE FROM money_journal_steps WHERE entry_id = ?');
    const insertStep = this.db.prepare(
      `INSERT INTO money_journal_steps (entry_id, seq, from_email, to_email, client_order_id,
         status, window_from, ref, message, updated_at)
       VALUES (@entryId, @seq, @fromEmail, @toEmail, @clientOrderId, @status, @windowFrom, @ref,
         @message, @updatedAt)`,
    );
    this.db.transaction(() => {
      for (const entry of entries) {
        const current = this.entryById.get(entry.id);
        if (current) {
          // The same entry, as recorded later: nothing to bring back.
          if (current.created_at !== entry.createdAt || current.profile_id !== entry.profileId) {
            continue;
          }
          if (current.updated_at >= entry.updatedAt) continue;
        }
        if (!profileExists.get(entry.profileId)) {
          withoutProfile.push(entry);
          continue;
        }
        replaceEntry.run({
          id: entry.id,
          profileId: entry.profileId,
          kind: entry.kind,
          asset: entry.asset,
          amount: entry.amount,
          fromEmail: entry.fromEmail,
          toEmail: entry.toEmail,
          viaEmail: entry.viaEmail,
          orderJson: entry.order ? JSON.stringify(entry.order) : null,
          status: entry.status,
          fundsAt: entry.fundsAt,
          facts: entry.facts,
          notice: entry.notice ? 1 : 0,
          createdAt: entry.createdAt,
          updatedAt: entry.updatedAt,
        });
        deleteSteps.run(entry.id);
        for (const step of entry.steps) {
          insertStep.run({
            entryId: entry.id,
            seq: step.seq,
            fromEmail: step.fromEmail,
            toEmail: step.toEmail,
            clientOrderId: step.clientOrderId,
            status: step.status,
            windowFrom: step.windowFrom,
            ref: step.ref,
            message: step.message,
            updatedAt: step.updatedAt,
          });
        }
        kept.push(entry);
      }
    })();
    return { kept, withoutProfile };
  }

  get(id: number): JournalEntryRow | undefined {
    const row = this.entryById.get(id);
    return row ? this.toEntry(row) : undefined;
  }

  /** The profile's entries in the given statuses, oldest first. */
  withStatus(profileId: string, statuses: readonly JournalStatus[]): JournalEntryRow[] {
    return this.entriesByStatus
      .all(profileId, JSON.stringify(statuses))
      .map((row) => this.toEntry(row));
  }

  /** What the user must see: unsettled or stopped entries, and those settled after a restart. */
  visible(profileId: string): JournalEntryRow[] {
    return this.visibleEntries.all(profileId).map((row) => this.toEntry(row));
  }

  /** Every exchange reference (txnId, orderId) the profile's journal already accounts for. */
  claimedRefs(profileId: string): Set<string> {
    return new Set(this.refsOfProfile.all(profileId).map((row) => row.ref));
  }

  /** The entry as it now is, appended to the journal's file too. */
  private appended(id: number): JournalEntryRow {
    const entry = this.get(id)!;
    this.file?.append(entry);
    return entry;
  }

  private toEntry(row: EntryDbRow): JournalEntryRow {
    return {
      id: row.id,
      profileId: row.profile_id,
      kind: row.kind,
      asset: row.asset,
      amount: row.amount,
      fromEmail: row.from_email,
      toEmail: row.to_email,
      viaEmail: row.via_email,
      order: row.order_json ? (JSON.parse(row.order_json) as JournalOrder) : null,
      status: row.status,
      fundsAt: row.funds_at,
      facts: row.facts,
      notice: row.notice === 1,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      steps: this.stepsOf.all(row.id).map(toStep),
    };
  }
}
