/**
 * Money movements through the journal: a transfer (one leg, or two through the main account) or
 * an order is written to the record before its first request, each step is marked before it is
 * sent and again when it is answered, and whatever a dead process left unfinished is reconciled
 * with the exchange at the next start and on each reconnect, then shown with the facts (where the
 * funds are now) and what the user may do (send the missing leg, or leave the funds).
 *
 * Nothing is sent twice. An order carries the clientOrderId written to the journal before it was
 * sent, and is looked up by it. A transfer carries no id of ours (the interface's transfer takes
 * only the asset, the amount and the two e-mails), so a leg is matched in the transfer history by
 * its accounts, asset and amount among the records made from the time it was marked sending on
 * and not already claimed by another journal step. A leg not found is taken as not made only once
 * its request, sent at the latest when the process that sent it died (before this check began),
 * has left the exchange's receive window.
 */
import { randomBytes } from 'node:crypto';
import { Decimal } from '../../shared/exact-decimal';
import type { JournalAction, JournalEntryView } from '../../shared/types';
import { sleep, type Clock } from '../core/clock';
import type { Emit } from '../core/events';
import { sameAsset } from '../core/market';
import type { ExchangeClient, NewOrder } from '../exchange/client';
import { ExchangeError } from '../exchange/errors';
import { RECONCILE_TIME_SLACK_MS } from '../exchange/requests';
import type { Order } from '../exchange/wire';
import type { JournalEntryRow, JournalStepRow, Store } from '../store';
import { UNSETTLED_STATUSES } from '../store';

/** The exchange's receive window the app's clients sign with (the client's default). */
export const JOURNAL_RECV_WINDOW_MS = 5000;
/** Delay between lookups while a step's request may still reach the exchange. */
const LOOKUP_POLL_MS = 500;

/** Where a run of the journal stands; a test stops the process at one of these points. */
export type JournalPoint =
  | { at: 'written'; entryId: number }
  | { at: 'sending'; entryId: number; seq: number }
  | { at: 'answered'; entryId: number; seq: number };

export interface MoneyJournalDeps {
  store: Store;
  client: ExchangeClient;
  profileId: string;
  /** Stamps of the journal's rows. */
  clock: Clock;
  emit?: Emit;
  log?: (line: string) => void;
  /** Called after each journal write, before the request it announces goes out. */
  afterWrite?: (point: JournalPoint) => void | Promise<void>;
  /** How a failure is put in words for the user (kept with the step); default its message. */
  describeError?: (error: unknown) => string;
  /** The receive window of the client's signed requests; default JOURNAL_RECV_WINDOW_MS. */
  recvWindowMs?: number;
}

export interface TransferRequest {
  asset: string;
  amount: string;
  fromEmail: string;
  toEmail: string;
  /** The main account, for a sub-to-sub move (two legs through it); absent for one leg. */
  viaEmail?: string;
}

/** A transfer that moved nothing, with the exchange's reason: the caller's ordinary error. */
export class NothingMovedError extends Error {
  constructor(
    readonly entry: JournalEntryRow,
    readonly reason: unknown,
  ) {
    super(reason instanceof Error ? reason.message : String(reason), { cause: reason });
    this.name = 'NothingMovedError';
  }
}

type LookupResult = { found: string } | { notMade: true } | { unknown: string };

const amountText = (amount: string, asset: string) => `${amount} ${asset.toUpperCase()}`;

export class MoneyJournal {
  /** Entries this process is sending now: a check leaves them to the run that owns them. */
  private readonly running = new Set<number>();
  private checking: Promise<JournalEntryRow[]> | null = null;
  private readonly recvWindowMs: number;

  constructor(private readonly deps: MoneyJournalDeps) {
    this.recvWindowMs = deps.recvWindowMs ?? JOURNAL_RECV_WINDOW_MS;
  }

  // ---- Running a movement --------------------------------------------------------------------

  /**
   * Makes a transfer, journaled. Resolves with the entry as it ended (completed, stopped half-way,
   * or unknown); rejects with NothingMovedError when the exchange refused the first leg.
   */
  async transfer(request: TransferRequest): Promise<JournalEntryRow> {
    const { fromEmail, toEmail, viaEmail } = request;
    const legs = viaEmail
      ? [
          { fromEmail, toEmail: viaEmail },
          { fromEmail: viaEmail, toEmail },
        ]
      : [{ fromEmail, toEmail }];
    const entry = this.journal.create({
      profileId: this.deps.profileId,
      kind: 'transfer',
      asset: request.asset,
      amount: request.amount,
      fromEmail,
      toEmail,
      ...(viaEmail ? { viaEmail } : {}),
      steps: legs,
      createdAt: this.stamp(),
    });
    this.changed();
    this.running.add(entry.id);
    try {
      await this.deps.afterWrite?.({ at: 'written', entryId: entry.id });
      return await this.sendLegs(entry.id, 1);
    } finally {
      this.running.delete(entry.id);
    }
  }

  /**
   * Places an order, journaled under a clientOrderId written before it is sent. Resolves with the
   * order; an unknown outcome leaves the entry to be checked again and rethrows.
   */
  async placeOrder(order: NewOrder): Promise<Order> {
    const clientOrderId = order.clientOrderId ?? randomBytes(16).toString('hex');
    const entry = this.journal.create({
      profileId: this.deps.profileId,
      kind: 'order',
      asset: order.symbol,
      amount: order.quantity,
      order: {
        symbol: order.symbol,
        side: order.side,
        type: order.type,
        price: order.price,
        ...(order.stopPrice !== undefined ? { stopPrice: order.stopPrice } : {}),
      },
      steps: [{ clientOrderId }],
      createdAt: this.stamp(),
    });
    this.running.add(entry.id);
    try {
      await this.deps.afterWrite?.({ at: 'written', entryId: entry.id });
      this.markSending(entry.id, 1);
      await this.deps.afterWrite?.({ at: 'sending', entryId: entry.id, seq: 1 });
      try {
        const placed = await this.deps.client.trading.placeOrder({ ...order, clientOrderId });
        this.journal.markStep(
          entry.id,
          1,
          { status: 'done', ref: String(placed.id) },
          this.stamp(),
        );
        this.settle(entry.id, false);
        return placed;
      } catch (error) {
        if (isUnknownOutcome(error)) {
          this.unknown(entry.id, 1, error);
        } else {
          this.journal.markStep(
            entry.id,
            1,
            { status: 'not-made', message: this.words(error) },
            this.stamp(),
          );
          this.settle(entry.id, false);
        }
        throw error;
      }
    } finally {
      this.running.delete(entry.id);
    }
  }

  /**
   * The user's "finish": sends the legs of a stopped transfer that did not happen (the second leg,
   * or the whole move when nothing left). Only settled entries qualify: what may still be on its
   * way is never sent again.
   */
  async finish(entryId: number): Promise<JournalEntryRow> {
    const entry = this.ownEntry(entryId);
    if (!actionsOf(entry).includes('finish')) {
      throw new JournalActionError(`Journal entry ${entryId} has nothing left to send.`);
    }
    const from = entry.steps.find((s) => s.status !== 'done');
    if (!from) throw new JournalActionError(`Journal entry ${entryId} has nothing left to send.`);
    const at = this.stamp();
    this.deps.store.transaction(() => {
      for (const step of entry.steps.filter((s) => s.seq >= from.seq)) {
        this.journal.markStep(entryId, step.seq, { status: 'pending' }, at);
      }
      this.journal.setStatus(entryId, { status: 'in-progress', notice: false }, at);
    });
    this.running.add(entryId);
    try {
      return await this.sendLegs(entryId, from.seq);
    } catch (error) {
      if (error instanceof NothingMovedError) return error.entry;
      throw error;
    } finally {
      this.running.delete(entryId);
    }
  }

  /** The user's "leave the funds where they are" or "dismiss": the entry is settled for good. */
  resolve(entryId: number): JournalEntryRow {
    const entry = this.ownEntry(entryId);
    const actions = actionsOf(entry);
    if (actions.includes('resolve')) {
      const resolved = this.journal.setStatus(
        entryId,
        { status: 'resolved', notice: false, facts: resolvedFacts(entry) },
        this.stamp(),
      );
      this.changed();
      return resolved;
    }
    if (actions.includes('dismiss')) {
      const dismissed = this.journal.setStatus(
        entryId,
        { status: entry.status, notice: false },
        this.stamp(),
      );
      this.changed();
      return dismissed;
    }
    throw new JournalActionError(
      `Journal entry ${entryId} is still being checked with the exchange; wait for its outcome.`,
    );
  }

  // ---- Reconciling -------------------------------------------------------------------------

  /**
   * Checks every unfinished entry of the profile with the exchange (not those this process is
   * sending now). One check at a time; a call during a check waits for it.
   */
  check(): Promise<JournalEntryRow[]> {
    this.checking ??= this.checkNow().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async checkNow(): Promise<JournalEntryRow[]> {
    const startedAt = this.serverNow();
    const open = this.journal
      .withStatus(this.deps.profileId, UNSETTLED_STATUSES)
      .filter((entry) => !this.running.has(entry.id));
    const checked: JournalEntryRow[] = [];
    for (const entry of open) {
      checked.push(await this.reconcile(entry, startedAt));
    }
    if (open.length > 0) this.changed(['journal', 'subAccounts', 'funds', 'orders']);
    return checked;
  }

  private async reconcile(
    entry: JournalEntryRow,
    checkStartedAt: number,
  ): Promise<JournalEntryRow> {
    for (const step of entry.steps) {
      if (step.status === 'done') continue;
      if (step.status !== 'sending') break;
      // The request was sent, at the latest, when its process died, before this check began.
      const conclusiveAt = checkStartedAt + this.recvWindowMs + 1000 + RECONCILE_TIME_SLACK_MS;
      const result = await this.lookUntil(entry, step, conclusiveAt);
      if ('unknown' in result) {
        this.deps.log?.(`journal ${entry.id}: step ${step.seq} still unknown (${result.unknown})`);
        return this.journal.setStatus(
          entry.id,
          { status: 'unknown', facts: factsOf({ ...entry, status: 'unknown' }) },
          this.stamp(),
        );
      }
      if ('found' in result) {
        this.journal.markStep(
          entry.id,
          step.seq,
          { status: 'done', ref: result.found },
          this.stamp(),
        );
        continue;
      }
      this.journal.markStep(
        entry.id,
        step.seq,
        { status: 'not-made', message: 'Not in the exchange’s records after its receive window' },
        this.stamp(),
      );
      break;
    }
    const settled = this.settle(entry.id, true);
    this.deps.log?.(`journal ${entry.id}: ${settled.status} after a check`);
    return settled;
  }

  private async lookUntil(
    entry: JournalEntryRow,
    step: JournalStepRow,
    conclusiveAt: number,
  ): Promise<LookupResult> {
    let failure: string | undefined;
    for (;;) {
      try {
        const found = await this.lookUp(entry, step);
        if (found !== undefined) return { found };
        failure = undefined;
      } catch (error) {
        failure = describe(error);
      }
      if (this.serverNow() > conclusiveAt) break;
      await sleep(this.deps.clock, LOOKUP_POLL_MS);
    }
    return failure === undefined ? { notMade: true } : { unknown: failure };
  }

  /** The exchange's reference of the step's effect, or undefined when it is not there (yet). */
  private async lookUp(entry: JournalEntryRow, step: JournalStepRow): Promise<string | undefined> {
    const { client, profileId } = this.deps;
    if (entry.kind === 'order') {
      try {
        const order = await client.trading.getOrder({ clientOrderId: step.clientOrderId! });
        return String(order.id);
      } catch (error) {
        if (error instanceof ExchangeError && error.kind === 'not-found') return undefined;
        throw error;
      }
    }
    const claimed = this.journal.claimedRefs(profileId);
    const from = (step.windowFrom ?? entry.createdAt) - RECONCILE_TIME_SLACK_MS;
    const history = await client.subAccounts.transferHistory();
    const match = history
      .filter(
        (record) =>
          !claimed.has(String(record.txnId)) &&
          sameAsset(record.asset, entry.asset) &&
          sameEmail(record.from, step.fromEmail) &&
          sameEmail(record.to, step.toEmail) &&
          new Decimal(record.qty).eq(entry.amount) &&
          record.time >= from,
      )
      .sort((a, b) => a.time - b.time)[0];
    return match ? String(match.txnId) : undefined;
  }

  // ---- Steps -------------------------------------------------------------------------------

  private async sendLegs(entryId: number, fromSeq: number): Promise<JournalEntryRow> {
    const entry = this.journal.get(entryId)!;
    for (const step of entry.steps.filter((s) => s.seq >= fromSeq)) {
      this.markSending(entryId, step.seq);
      await this.deps.afterWrite?.({ at: 'sending', entryId, seq: step.seq });
      try {
        const result = await this.deps.client.subAccounts.transfer({
          currency: entry.asset,
          amount: entry.amount,
          fromEmail: step.fromEmail!,
          toEmail: step.toEmail!,
        });
        this.journal.markStep(
          entryId,
          step.seq,
          { status: 'done', ref: String(result.txnId) },
          this.stamp(),
        );
        this.changed();
        await this.deps.afterWrite?.({ at: 'answered', entryId, seq: step.seq });
      } catch (error) {
        if (isUnknownOutcome(error)) return this.unknown(entryId, step.seq, error);
        this.journal.markStep(
          entryId,
          step.seq,
          { status: 'not-made', message: this.words(error) },
          this.stamp(),
        );
        const settled = this.settle(entryId, false);
        if (step.seq === fromSeq && settled.status === 'not-made') {
          throw new NothingMovedError(settled, error);
        }
        return settled;
      }
    }
    return this.settle(entryId, false);
  }

  private markSending(entryId: number, seq: number): void {
    this.journal.markStep(
      entryId,
      seq,
      { status: 'sending', windowFrom: this.serverNow() },
      this.stamp(),
    );
  }

  private unknown(entryId: number, seq: number, error: unknown): JournalEntryRow {
    const at = this.stamp();
    this.journal.markStep(entryId, seq, { status: 'sending', message: this.words(error) }, at);
    const entry = this.journal.get(entryId)!;
    const row = this.journal.setStatus(
      entryId,
      { status: 'unknown', facts: factsOf({ ...entry, status: 'unknown' }) },
      at,
    );
    this.changed();
    return row;
  }

  /** Sets the entry's status from its steps (all known by now), with the facts in words. */
  private settle(entryId: number, afterCheck: boolean): JournalEntryRow {
    const entry = this.journal.get(entryId)!;
    const done = entry.steps.filter((s) => s.status === 'done').length;
    let status: JournalEntryRow['status'];
    let fundsAt: string | null;
    if (done === entry.steps.length) {
      status = 'completed';
      fundsAt = entry.kind === 'transfer' ? entry.toEmail : null;
    } else if (done === 0) {
      status = 'not-made';
      fundsAt = entry.kind === 'transfer' ? entry.fromEmail : null;
    } else {
      status = 'stopped';
      fundsAt = entry.steps[done - 1]!.toEmail;
    }
    const row = this.journal.setStatus(
      entryId,
      {
        status,
        fundsAt,
        facts: factsOf({ ...entry, status, fundsAt }),
        // What the user did not see happen (a check after a restart or a reconnect) is shown
        // until dismissed; a movement stopped half-way is shown anyway.
        notice: afterCheck,
      },
      this.stamp(),
    );
    this.changed();
    return row;
  }

  private ownEntry(entryId: number): JournalEntryRow {
    const entry = this.journal.get(entryId);
    if (!entry || entry.profileId !== this.deps.profileId) {
      throw new JournalActionError(`The active profile has no journal entry ${entryId}.`, 'id');
    }
    if (this.running.has(entryId)) {
      throw new JournalActionError(`Journal entry ${entryId} is being sent right now.`);
    }
    return entry;
  }

  private words(error: unknown): string {
    return (this.deps.describeError ?? describe)(error);
  }

  private get journal() {
    return this.deps.store.journal;
  }

  private stamp(): number {
    return this.deps.clock.now();
  }

  /** The exchange's time as the client estimates it (the same local clock the client signs with). */
  private serverNow(): number {
    return Date.now() + this.deps.client.clockOffsetMs;
  }

  private changed(kinds: ('journal' | 'subAccounts' | 'funds' | 'orders')[] = ['journal']): void {
    this.deps.emit?.('data.changed', { profileId: this.deps.profileId, kinds });
  }
}

/** An action the entry does not allow now. `field` names the input at fault, if one is. */
export class JournalActionError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'JournalActionError';
  }
}

function isUnknownOutcome(error: unknown): boolean {
  return error instanceof ExchangeError && error.kind === 'unknown-outcome';
}

function sameEmail(a: string, b: string | null): boolean {
  return b !== null && a.toLowerCase() === b.toLowerCase();
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What the user may do with an entry as it stands. */
export function actionsOf(entry: JournalEntryRow): JournalAction[] {
  if (entry.status === 'stopped') return ['finish', 'resolve'];
  if (entry.status === 'not-made' && entry.kind === 'transfer' && entry.notice) {
    return ['finish', 'dismiss'];
  }
  if (entry.notice && (entry.status === 'completed' || entry.status === 'not-made')) {
    return ['dismiss'];
  }
  return [];
}

/** The facts of an entry in the user's words: what moved, and where the funds are now. */
export function factsOf(
  entry: Pick<
    JournalEntryRow,
    | 'kind'
    | 'asset'
    | 'amount'
    | 'fromEmail'
    | 'toEmail'
    | 'viaEmail'
    | 'order'
    | 'status'
    | 'steps'
  > & { fundsAt?: string | null },
): string {
  if (entry.kind === 'order') {
    const order = entry.order;
    const what = order
      ? `${order.side} ${entry.amount} ${entry.asset.toUpperCase()} at ${order.price}`
      : `${entry.amount} ${entry.asset.toUpperCase()}`;
    const ref = entry.steps[0]?.ref;
    switch (entry.status) {
      case 'completed':
        return `The order to ${what} was placed${ref ? ` (order ${ref})` : ''}.`;
      case 'not-made':
        return `The order to ${what} was not placed.`;
      case 'unknown':
        return `The exchange has not confirmed the order to ${what}; Spotfolio looks it up by its client order id when it reconnects.`;
      default:
        return `Placing the order to ${what}.`;
    }
  }
  const what = amountText(entry.amount, entry.asset);
  const from = entry.fromEmail ?? '?';
  const to = entry.toEmail ?? '?';
  const via = entry.viaEmail;
  switch (entry.status) {
    case 'completed':
      return via
        ? `${what} moved from ${from} to ${to} (through your main account ${via}).`
        : `${what} moved from ${from} to ${to}.`;
    case 'not-made':
      return `Nothing moved: the transfer of ${what} from ${from} to ${to} was not made, and the funds are still in ${from}.`;
    case 'stopped':
      return `${what} left ${from} and is in your main account ${entry.fundsAt ?? via ?? ''}; it did not reach ${to}.`;
    case 'unknown': {
      const firstDone = entry.steps[0]?.status === 'done';
      return firstDone && via
        ? `${what} left ${from} and reached your main account ${via}; the exchange has not confirmed the move on to ${to}. Spotfolio checks again when it reconnects.`
        : `The exchange has not confirmed the transfer of ${what} from ${from} to ${to}. Spotfolio checks again when it reconnects; nothing will be sent again meanwhile.`;
    }
    case 'resolved':
      return resolvedFacts(entry as JournalEntryRow);
    default:
      return `Moving ${what} from ${from} to ${to}.`;
  }
}

function resolvedFacts(
  entry: Pick<JournalEntryRow, 'amount' | 'asset' | 'fundsAt' | 'toEmail'>,
): string {
  return `${amountText(entry.amount, entry.asset)} left in ${entry.fundsAt ?? 'the account it reached'}, as you chose; it was not sent on to ${entry.toEmail ?? '?'}.`;
}

/** The bridge's view of an entry. */
export function toJournalView(entry: JournalEntryRow): JournalEntryView {
  return {
    id: entry.id,
    kind: entry.kind,
    asset: entry.asset,
    amount: entry.amount,
    fromEmail: entry.fromEmail,
    toEmail: entry.toEmail,
    viaEmail: entry.viaEmail,
    order: entry.order
      ? { side: entry.order.side, type: entry.order.type, price: entry.order.price }
      : null,
    status: entry.status,
    fundsAt: entry.fundsAt,
    facts: entry.facts ?? factsOf(entry),
    actions: actionsOf(entry),
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    steps: entry.steps.map((step) => ({
      fromEmail: step.fromEmail,
      toEmail: step.toEmail,
      clientOrderId: step.clientOrderId,
      status: step.status,
      ref: step.ref,
      message: step.message,
    })),
  };
}
