/**
 * What the user wrote about inferred entries (a label, a credit's cost basis), held against the
 * entries as the ledger derives them now. An annotation is kept under its entry's id
 * (inferredEntryId: account, asset, direction and the observation that opens the interval) with
 * the entry's facts as they stood when the user wrote it. New records (a withdraw history fetched
 * in full, an import, new balance observations) may change the entry under the same id, move it
 * to another interval, or explain it away. Each annotation then comes out as one of:
 * - kept: its entry is there as the user saw it;
 * - changed: its entry is there under the same id, with another amount or time: the annotation
 *   still applies, and the app asks the user to look again (both sets of facts side by side);
 * - moved: no entry has its id now, but one of the same account, asset and direction covers the
 *   time it was at (and has no annotation of its own): the annotation applies to that one, and the
 *   app asks the user to look again;
 * - gone: nothing covers it any more (the records explain the movement): the app shows it, with
 *   what the user wrote, until the user removes it.
 * None is ever dropped without being shown.
 */
import type { AnnotationReviewView, InferredFacts } from '../../shared/ledger';
import type { AnnotationRow } from '../store';
import { assetKey } from '../../shared/market';
import type { InferredEntry } from './entries';
import type { InferredAnnotation } from './reconcile';

export type AnnotationStatus = 'kept' | 'changed' | 'moved' | 'gone';

export interface ResolvedAnnotation {
  /** The id it is kept under. */
  keptId: string;
  /** The account and asset it was written about (empty when its id does not say). */
  account: string;
  asset: string;
  annotation: InferredAnnotation;
  /** Its entry's facts when the user wrote it (null for a row kept before facts were). */
  was: InferredFacts | null;
  status: AnnotationStatus;
  /** The entry it applies to now (null when gone). */
  entry: InferredEntry | null;
}

/** The facts of an entry as an annotation keeps them. */
export function factsOf(entry: InferredEntry): InferredFacts {
  return {
    account: entry.account,
    asset: entry.asset,
    amount: entry.amount,
    from: entry.from,
    to: entry.to,
    time: entry.time,
  };
}

/** The label and cost basis a row keeps, as reconcile applies them. */
export function annotationOf(row: AnnotationRow): InferredAnnotation {
  const annotation: InferredAnnotation = {};
  if (row.label !== null) annotation.label = row.label;
  if (row.costAmount !== null && row.costCurrency !== null) {
    annotation.costBasis = { amount: row.costAmount, currency: assetKey(row.costCurrency) };
  }
  return annotation;
}

/** What a kept id says of its entry: account, asset, the interval's start and direction. */
interface IdParts {
  account: string;
  asset: string;
  credit: boolean;
  /** The interval's start; null for the account's opening. */
  from: number | null;
}

function partsOf(row: AnnotationRow): IdParts | null {
  if (row.facts) {
    return {
      account: row.facts.account,
      asset: row.facts.asset,
      credit: !row.facts.amount.startsWith('-'),
      from: row.facts.from,
    };
  }
  // inferred:<account>:<asset>:<from>:<direction>, the account possibly holding ':'.
  const match = /^inferred:(.+):([^:]+):(open|-?\d+):(credit|debit)$/.exec(row.entryId);
  if (!match) return null;
  return {
    account: match[1]!,
    asset: match[2]!,
    credit: match[4] === 'credit',
    from: match[3] === 'open' ? null : Number(match[3]),
  };
}

/** Whether an entry still stands as the facts kept say. */
function sameFacts(entry: InferredEntry, was: InferredFacts | null): boolean {
  return was === null || (entry.amount === was.amount && entry.time === was.time);
}

/**
 * Every annotation against the inferred entries derived now (in any order), in the rows' order.
 * An entry takes at most one annotation: its own (same id) first, then a moved one.
 */
export function resolveAnnotations(
  inferred: readonly InferredEntry[],
  rows: readonly AnnotationRow[],
): ResolvedAnnotation[] {
  const byId = new Map(inferred.map((entry) => [entry.id, entry]));
  const claimed = new Set<string>();
  for (const row of rows) if (byId.has(row.entryId)) claimed.add(row.entryId);
  return rows.map((row): ResolvedAnnotation => {
    const parts = partsOf(row);
    const base = {
      keptId: row.entryId,
      account: parts?.account ?? '',
      asset: parts ? assetKey(parts.asset) : '',
      annotation: annotationOf(row),
      was: row.facts,
    };
    const own = byId.get(row.entryId);
    if (own) return { ...base, status: sameFacts(own, row.facts) ? 'kept' : 'changed', entry: own };
    const successor = parts && successorOf(row, parts, inferred, claimed);
    if (successor) {
      claimed.add(successor.id);
      return { ...base, status: 'moved', entry: successor };
    }
    return { ...base, status: 'gone', entry: null };
  });
}

/**
 * The entry an annotation whose id is gone moved to: of the same account, asset and direction,
 * unclaimed, its interval (from, to] covering where the annotated entry was (its time; for a row
 * kept without facts, just after its interval's start, the opening's for "open").
 */
function successorOf(
  row: AnnotationRow,
  parts: IdParts,
  inferred: readonly InferredEntry[],
  claimed: ReadonlySet<string>,
): InferredEntry | null {
  const account = parts.account;
  const asset = assetKey(parts.asset);
  for (const entry of inferred) {
    if (claimed.has(entry.id) || entry.account !== account || entry.asset !== asset) continue;
    if (entry.amount.startsWith('-') === parts.credit) continue;
    const at = row.facts ? row.facts.time : parts.from === null ? null : parts.from + 1;
    if (at === null ? entry.id.includes(':open:') : entry.from < at && at <= entry.to) {
      return entry;
    }
  }
  return null;
}

/**
 * The annotations that apply to entries under another id (moved), by the entry's id now: given to
 * reconcile beside the kept ones, so a fresh build and a kept one label the same entries.
 */
export function movedAnnotations(
  resolved: readonly ResolvedAnnotation[],
): Map<string, InferredAnnotation> {
  const moved = new Map<string, InferredAnnotation>();
  for (const item of resolved) {
    if (item.status === 'moved' && item.entry) moved.set(item.entry.id, item.annotation);
  }
  return moved;
}

/**
 * The ids of annotations that moved to entry `entryId`: what the user writes about that entry now
 * takes their place (they were shown beside it).
 */
export function movedTo(annotations: readonly ResolvedAnnotation[], entryId: string): string[] {
  return annotations
    .filter((item) => item.entry?.id === entryId && item.keptId !== entryId)
    .map((item) => item.keptId);
}

/** `entry` with `annotation` applied as reconcile applies one. */
export function withAnnotation(
  entry: InferredEntry,
  annotation: InferredAnnotation,
): InferredEntry {
  const { label: _label, costBasis: _costBasis, ...bare } = entry;
  return {
    ...bare,
    ...(annotation.label !== undefined ? { label: annotation.label } : {}),
    ...(annotation.costBasis !== undefined ? { costBasis: annotation.costBasis } : {}),
  };
}

/** What the screens show of an annotation that needs the user's look; null when it is kept. */
export function reviewView(item: ResolvedAnnotation): AnnotationReviewView | null {
  if (item.status === 'kept') return null;
  const costBasis = item.annotation.costBasis;
  return {
    id: item.keptId,
    account: item.account,
    asset: item.asset,
    status: item.status,
    label: item.annotation.label ?? null,
    costBasis: costBasis ? { amount: costBasis.amount, currency: costBasis.currency } : null,
    was: item.was
      ? { amount: item.was.amount, time: item.was.time, from: item.was.from, to: item.was.to }
      : null,
    now: item.entry
      ? {
          id: item.entry.id,
          amount: item.entry.amount,
          time: item.entry.time,
          from: item.entry.from,
          to: item.entry.to,
        }
      : null,
  };
}

/** The reviews of `annotations`, by the id of the entry each applies to now. */
export function reviewsByEntry(
  annotations: readonly ResolvedAnnotation[],
): Map<string, AnnotationReviewView> {
  const byEntry = new Map<string, AnnotationReviewView>();
  for (const item of annotations) {
    const view = reviewView(item);
    if (view?.now) byEntry.set(view.now.id, view);
  }
  return byEntry;
}
