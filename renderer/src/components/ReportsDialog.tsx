/**
 * Reports: the tax-year report (year, cost method, holding-days threshold for long term) and the
 * whole ledger in Koinly's universal format. Each is written as a CSV by the main process; the
 * dialog says where the file went and opens its folder.
 */
import { useState } from 'react';
import {
  COST_METHOD_HINTS,
  COST_METHOD_LABELS,
  COST_METHODS,
  type CostMethodName,
  type ReportFileView,
} from '../../../shared/ledger';
import { bridge } from '../lib/bridge';
import { useAction, useBridgeQuery } from '../lib/query';
import { ErrorBox, Modal, Value } from './common';

export function ReportsDialog(props: { onClose: () => void }) {
  const thisYear = new Date().getUTCFullYear();
  const [year, setYear] = useState(String(thisYear));
  // The report starts with the method the ledger uses (Settings), so its figures match the P&L
  // card's unless the user picks another here.
  const ledgerSettings = useBridgeQuery('ledger.settings');
  const [chosenMethod, setMethod] = useState<CostMethodName | undefined>(undefined);
  const method = chosenMethod ?? ledgerSettings.data?.method;
  const [days, setDays] = useState('365');
  const [written, setWritten] = useState<ReportFileView | null>(null);
  // One report at a time: both buttons are held while either is written.
  const writing = useAction((write: () => Promise<ReportFileView>) => write(), {
    onSuccess: (file) => setWritten(file),
  });
  const { pending: busy, error, run } = writing;

  const summary = written?.summary;
  return (
    <Modal title="Reports" onClose={props.onClose} testId="reports-dialog">
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          if (method === undefined) return;
          void run(() =>
            bridge().ledger.taxReport({
              year: Number(year),
              method,
              longTermAfterDays: Number(days),
            }),
          );
        }}
      >
        <h3>Tax-year report</h3>
        <label className="field">
          <span>Year (UTC)</span>
          <input
            type="number"
            min={2009}
            max={2100}
            value={year}
            onChange={(e) => setYear(e.target.value)}
            data-testid="report-year"
          />
        </label>
        <label className="field">
          <span>Cost method</span>
          <select
            value={method ?? ''}
            disabled={method === undefined}
            onChange={(e) => setMethod(e.target.value as CostMethodName)}
            data-testid="report-method"
          >
            {COST_METHODS.map((name) => (
              <option key={name} value={name}>
                {COST_METHOD_LABELS[name]}
              </option>
            ))}
          </select>
          {method !== undefined && (
            <small className="muted" data-testid="report-method-hint">
              {COST_METHOD_HINTS[method]}
            </small>
          )}
        </label>
        <label className="field">
          <span>Long term after (days held)</span>
          <input
            type="number"
            min={0}
            value={days}
            onChange={(e) => setDays(e.target.value)}
            data-testid="report-days"
          />
        </label>
        <div className="form-actions">
          <button
            type="submit"
            disabled={busy || method === undefined}
            data-testid="write-tax-report"
          >
            Write tax report (CSV)
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => void run(() => bridge().ledger.koinlyExport({}))}
            data-testid="write-koinly"
          >
            Export for Koinly (CSV)
          </button>
        </div>
      </form>
      {error !== undefined && <ErrorBox error={error} />}
      {written && (
        <div className="card" data-testid="report-written">
          <p>
            {written.rows.toLocaleString('en-US')} rows written to{' '}
            <code data-testid="report-path">{written.path}</code>
          </p>
          {written.terms && (
            <p>
              Short and long term, and the total, in{' '}
              <code data-testid="report-terms-path">{written.terms.path}</code>
            </p>
          )}
          {summary && (
            <dl className="facts" data-testid="report-summary">
              <div>
                <dt>Gain or loss</dt>
                <dd>
                  <Value value={summary.total.gain} quote={summary.currency} signed />
                </dd>
              </div>
              <div>
                <dt>Short term ({summary.shortTerm.rows})</dt>
                <dd>
                  <Value value={summary.shortTerm.gain} quote={summary.currency} signed />
                </dd>
              </div>
              <div>
                <dt>Long term ({summary.longTerm.rows})</dt>
                <dd>
                  <Value value={summary.longTerm.gain} quote={summary.currency} signed />
                </dd>
              </div>
              <div>
                <dt>Proceeds</dt>
                <dd>
                  <Value value={summary.total.proceeds} quote={summary.currency} />
                </dd>
              </div>
              <div>
                <dt>Fees paid</dt>
                <dd>
                  <Value value={summary.feesPaid} quote={summary.currency} />
                </dd>
              </div>
              {summary.estimatedRows + summary.missingBasisRows > 0 && (
                <div>
                  <dt>Rows on an estimated or unknown basis</dt>
                  <dd>{summary.estimatedRows + summary.missingBasisRows}</dd>
                </div>
              )}
            </dl>
          )}
          <button
            type="button"
            onClick={() => void bridge().ledger.openExportsFolder({})}
            data-testid="open-report-folder"
          >
            Open folder
          </button>
        </div>
      )}
    </Modal>
  );
}
