/**
 * The money journal on screen: a transfer or an order the app started and did not see through
 * (the app was closed or the connection lost half-way), once checked with the exchange, with the
 * facts (where the funds are now) and what the user may do: send the missing leg, leave the funds
 * where they are, or acknowledge what was found. Entries still being checked say so.
 */
import type { JournalAction, JournalEntryView } from '../../../shared/types';
import { bridge } from '../lib/bridge';
import { useAction, useBridgeQuery } from '../lib/query';
import { InlineError } from './common';

const TITLES: Record<JournalEntryView['status'], string> = {
  'in-progress': 'Checking with the exchange',
  unknown: 'Not confirmed yet',
  stopped: 'Transfer not finished',
  completed: 'Finished while Spotfolio was away',
  'not-made': 'Not made',
  resolved: 'Resolved',
};

function actionLabel(entry: JournalEntryView, action: JournalAction): string {
  switch (action) {
    case 'finish':
      return entry.status === 'stopped' && entry.toEmail
        ? `Send it on to ${entry.toEmail}`
        : 'Make the transfer now';
    case 'resolve':
      return entry.fundsAt ? `Leave it in ${entry.fundsAt}` : 'Leave it where it is';
    case 'dismiss':
      return 'OK';
  }
}

export function MoneyJournalPanel() {
  const journal = useBridgeQuery('journal.list');
  const entries = journal.data ?? [];
  if (entries.length === 0) return null;
  return (
    <section
      className="journal-panel"
      aria-label="Money movements to check"
      data-testid="journal-panel"
    >
      {entries.map((entry) => (
        <JournalEntry key={entry.id} entry={entry} onDone={journal.reload} />
      ))}
    </section>
  );
}

function JournalEntry({ entry, onDone }: { entry: JournalEntryView; onDone: () => void }) {
  const acting = useAction(
    (action: JournalAction) =>
      action === 'finish'
        ? bridge().journal.finish({ id: entry.id })
        : bridge().journal.resolve({ id: entry.id }),
    { onSuccess: () => onDone() },
  );
  const busy = acting.pending ? (acting.input ?? null) : null;
  const { error, run } = acting;
  const tone = entry.status === 'stopped' || entry.status === 'unknown' ? 'warn' : 'info';
  return (
    <div
      className={`banner ${tone} journal-entry`}
      role="status"
      data-testid="journal-entry"
      data-status={entry.status}
      data-journal-id={entry.id}
    >
      <div>
        <strong>{TITLES[entry.status]}.</strong>{' '}
        <span data-testid="journal-facts">{entry.facts}</span>
        {error !== undefined && <InlineError error={error} testId="journal-error" />}
      </div>
      {entry.actions.length > 0 && (
        <div className="journal-actions">
          {entry.actions.map((action) => (
            <button
              key={action}
              type="button"
              className={action === 'finish' ? 'small primary' : 'small ghost'}
              disabled={busy !== null}
              onClick={() => void run(action)}
              data-testid={`journal-${action}`}
            >
              {busy === action ? 'Working…' : actionLabel(entry, action)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
