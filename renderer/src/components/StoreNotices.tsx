/**
 * What the store did to the user's local data at this start, told on screen: a banner per notice
 * (the cache rebuilt, the record restored from a backup of a given time, or lost), dismissible;
 * and, when the record could not be opened at all, a screen of its own in place of the app.
 */
import { useState } from 'react';
import type { RecordUnavailable, StoreNotice } from '../../../shared/types';
import { formatDateTime } from '../../../shared/format';

const DISMISSED_KEY = 'spotfolio.dismissedStoreNotices';

function readDismissed(): string[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(DISMISSED_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** The banners; a dismissed notice stays dismissed when the page reloads (ids are per start). */
export function StoreNotices({ notices }: { notices: readonly StoreNotice[] }) {
  const [dismissed, setDismissed] = useState<string[]>(readDismissed);
  const dismiss = (id: string) => {
    const next = [...dismissed, id];
    setDismissed(next);
    try {
      sessionStorage.setItem(DISMISSED_KEY, JSON.stringify(next));
    } catch {
      // Storage refused: the notice still goes away until the page reloads.
    }
  };
  const shown = notices.filter((notice) => !dismissed.includes(notice.id));
  if (shown.length === 0) return null;
  return (
    <div className="store-notices">
      {shown.map((notice) => (
        <div
          key={notice.id}
          className={`banner ${notice.kind === 'cache-rebuilt' ? 'info' : 'warn'} store-notice`}
          role="status"
          data-testid="store-notice"
          data-kind={notice.kind}
        >
          <div>
            <NoticeText notice={notice} />
          </div>
          <button
            type="button"
            className="small ghost"
            onClick={() => dismiss(notice.id)}
            data-testid="store-notice-dismiss"
          >
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}

function NoticeText({ notice }: { notice: StoreNotice }) {
  switch (notice.kind) {
    case 'cache-rebuilt':
      return (
        <>
          <strong>Local data was rebuilt from the exchange.</strong>{' '}
          <span>
            The saved copy of your exchange data could not be read ({notice.reason}), so it is being
            downloaded again. Your profiles and settings are unaffected. The unreadable file was
            kept at <code>{notice.movedTo}</code>.
          </span>
        </>
      );
    case 'record-restored': {
      const when = formatDateTime(notice.backupTakenAt);
      return (
        <>
          <strong data-testid="store-notice-backup-time" data-time={notice.backupTakenAt}>
            Your data was restored from the backup of {when}.
          </strong>{' '}
          <span>
            The file holding your profiles and settings could not be used ({notice.reason}).
            Spotfolio restored <code>{notice.backupPath}</code>. Changes made after {when} may be
            missing: profiles added, settings changed and value history recorded since then.{' '}
            <JournalKept notice={notice} />
            {notice.movedTo && (
              <>
                {' '}
                The unusable file was kept at <code>{notice.movedTo}</code>.
              </>
            )}
          </span>
        </>
      );
    }
    case 'record-lost':
      return (
        <>
          <strong>Your profiles and settings could not be restored.</strong>{' '}
          <span>
            The file holding them could not be used ({notice.reason}) and there was no backup to
            restore, so Spotfolio started without them. Add your API keys again; your exchange data
            will be downloaded again.
            {notice.movedTo && (
              <>
                {' '}
                The unusable file was kept at <code>{notice.movedTo}</code>.
              </>
            )}
          </span>
        </>
      );
  }
}

/** What the restore kept of the money journal, which has a file of its own beside the record. */
function JournalKept({ notice }: { notice: Extract<StoreNotice, { kind: 'record-restored' }> }) {
  const kept = notice.journalKept ?? 0;
  const orphaned = notice.journalWithoutProfile ?? 0;
  return (
    <span data-testid="store-notice-journal" data-kept={kept}>
      {kept === 0
        ? 'The money journal (transfers and orders sent) had nothing the backup lacks.'
        : `${kept} transfer${kept === 1 ? '' : 's'} or order${kept === 1 ? '' : 's'} sent after it ${kept === 1 ? 'was' : 'were'} kept from the money journal and checked with the exchange: see "Money movements to check".`}
      {orphaned > 0 &&
        ` ${orphaned} belong${orphaned === 1 ? 's' : ''} to a profile this backup does not have; add its key again to see ${orphaned === 1 ? 'it' : 'them'}.`}
    </span>
  );
}

/** In place of the app when the record could not be opened: nothing starts, nothing is replaced. */
export function RecordUnavailableScreen({ details }: { details: RecordUnavailable }) {
  const title =
    details.problem === 'newer-version'
      ? 'Your data needs a newer version of Spotfolio'
      : details.problem === 'migration-failed'
        ? 'Your data could not be updated'
        : 'Your data could not be opened';
  return (
    <div
      className="boot record-unavailable"
      role="alertdialog"
      aria-labelledby="record-unavailable-title"
      data-testid="record-unavailable"
      data-problem={details.problem}
    >
      <h1 id="record-unavailable-title">{title}</h1>
      <div className="banner danger">
        <p data-testid="record-unavailable-message">{details.message}</p>
        <dl>
          <dt>Your data file</dt>
          <dd>
            <code data-testid="record-unavailable-path">{details.path}</code>
          </dd>
          {details.backupPath && (
            <>
              <dt>Backup taken before the attempt</dt>
              <dd>
                <code data-testid="record-unavailable-backup">{details.backupPath}</code>
              </dd>
            </>
          )}
        </dl>
      </div>
      <p data-testid="record-unavailable-help">{details.help}</p>
    </div>
  );
}
