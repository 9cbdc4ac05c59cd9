/**
 * One asset, opened from its Funds row: its figures (quantity, value, average cost, P&L, fees),
 * holdings over time, the open lots, and every entry that moved it (trades, withdrawals,
 * transfers and inferred entries), all for every account together or the main account alone, as
 * its switch says. An inferred entry is marked as such, with the interval it happened in, and the
 * user can label it and set a credit's cost basis.
 */
import { useState } from 'react';
import {
  COST_METHOD_HINTS,
  COST_METHOD_LABELS,
  COST_METHODS,
  type AnnotationReviewView,
  type CostMethodName,
  type InferredFactsView,
  type LedgerEntryView,
} from '../../../shared/ledger';
import { formatDateTime } from '../../../shared/format';
import { inferredWindow } from '../lib/ledger-text';
import { useBridgeAction, useBridgeQuery } from '../lib/query';
import { AssetAlertButton } from '../components/AlertForm';
import { ScopeSwitch, scopeInput, type LedgerScope } from '../components/ScopeSwitch';
import { Amount, ErrorBox, PageHeader, Price, QueryStatus, Value } from '../components/common';

/** Inferred entries stand out from what the exchange recorded. */
const INFERRED_ROW = { background: 'rgba(214, 158, 46, 0.12)' } as const;

function InferredEditor(props: { entry: LedgerEntryView; currency: string; onSaved: () => void }) {
  const detail = props.entry.inferred!;
  const [label, setLabel] = useState(detail.label ?? '');
  const [cost, setCost] = useState(detail.costBasis?.amount ?? '');
  const [currency, setCurrency] = useState(detail.costBasis?.currency ?? props.currency);
  const annotate = useBridgeAction('ledger.annotate', { onSuccess: () => props.onSaved() });
  const { pending: saving, error } = annotate;
  const save = () =>
    annotate.run({
      id: props.entry.id,
      label: label.trim() === '' ? null : label.trim(),
      costBasis: detail.credit && cost.trim() !== '' ? { amount: cost.trim(), currency } : null,
    });
  return (
    <form
      style={{ display: 'flex', flexWrap: 'wrap', gap: '0.4rem', marginTop: '0.3rem' }}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      data-testid={`inferred-editor-${props.entry.id}`}
    >
      <input
        aria-label="Label"
        placeholder="Label (e.g. salary, gift)"
        value={label}
        onChange={(e) => setLabel(e.target.value)}
        data-testid="inferred-label"
      />
      {detail.credit && (
        <>
          <input
            aria-label="Cost basis"
            placeholder="Cost basis (total)"
            inputMode="decimal"
            value={cost}
            onChange={(e) => setCost(e.target.value)}
            data-testid="inferred-cost"
          />
          <input
            aria-label="Cost basis currency"
            value={currency}
            size={6}
            onChange={(e) => setCurrency(e.target.value)}
            data-testid="inferred-cost-currency"
          />
        </>
      )}
      <button type="submit" disabled={saving} data-testid="inferred-save">
        Save
      </button>
      {error !== undefined && <ErrorBox error={error} />}
    </form>
  );
}

const REVIEW_REASONS: Record<AnnotationReviewView['status'], string> = {
  changed:
    'New records changed this entry since you wrote its label and cost; they still apply to it.',
  moved:
    'New records place this entry in another interval now; your label and cost apply to it there.',
  gone: 'No inferred entry covers this any more: the records now explain the movement. Your label and cost apply to nothing until you say.',
};

function FactsText(props: { facts: InferredFactsView; asset: string }) {
  return (
    <>
      <Amount value={props.facts.amount} asset={props.asset} signed unit />, placed at{' '}
      {formatDateTime(props.facts.time)} (between {formatDateTime(props.facts.from)} and{' '}
      {formatDateTime(props.facts.to)})
    </>
  );
}

/**
 * A label and cost that new records changed, with the entry as the user saw it and as it is now:
 * kept with the entry now, or removed, only when the user says.
 */
function AnnotationReview(props: { review: AnnotationReviewView; onDone: () => void }) {
  const { review } = props;
  const decide = useBridgeAction('ledger.review', { onSuccess: () => props.onDone() });
  const { pending: busy, error } = decide;
  const act = (action: 'keep' | 'remove') => decide.run({ id: review.id, action });
  return (
    <li data-testid="annotation-review" data-status={review.status}>
      <p>
        <strong data-testid="review-label">{review.label ?? '(no label)'}</strong>
        {review.costBasis && (
          <>
            {' '}
            — cost basis{' '}
            <span data-testid="review-cost">
              <Amount value={review.costBasis.amount} asset={review.costBasis.currency} unit />
            </span>
          </>
        )}
        {review.account !== 'main' && <span className="muted"> ({review.account})</span>}
      </p>
      <p className="small-text">{REVIEW_REASONS[review.status]}</p>
      <dl className="facts small-text">
        <div>
          <dt>When you wrote it</dt>
          <dd data-testid="review-was">
            {review.was ? (
              <FactsText facts={review.was} asset={review.asset} />
            ) : (
              'not recorded (written with an earlier version)'
            )}
          </dd>
        </div>
        <div>
          <dt>Now</dt>
          <dd data-testid="review-now">
            {review.now ? (
              <FactsText facts={review.now} asset={review.asset} />
            ) : (
              'no inferred entry'
            )}
          </dd>
        </div>
      </dl>
      <div style={{ display: 'flex', gap: '0.4rem' }}>
        {review.now && (
          <button
            type="button"
            disabled={busy}
            onClick={() => void act('keep')}
            data-testid="review-keep"
          >
            Keep them with the entry as it is now
          </button>
        )}
        <button
          type="button"
          disabled={busy}
          onClick={() => void act('remove')}
          data-testid="review-remove"
        >
          Remove the label and cost
        </button>
      </div>
      {error !== undefined && <ErrorBox error={error} />}
    </li>
  );
}

/**
 * The page's own cost method: the Settings method until the user picks another here, which then
 * holds for this page only (the P&L card, reports and Settings keep theirs).
 */
function MethodPicker(props: {
  shown: CostMethodName;
  setting: CostMethodName | undefined;
  onPick: (method: CostMethodName) => void;
}) {
  return (
    <label style={{ display: 'inline-flex', gap: '0.4rem', alignItems: 'center' }}>
      <span>Cost method</span>
      <select
        value={props.shown}
        onChange={(e) => props.onPick(e.target.value as CostMethodName)}
        data-testid="asset-method"
        title={COST_METHOD_HINTS[props.shown]}
      >
        {COST_METHODS.map((method) => (
          <option key={method} value={method}>
            {COST_METHOD_LABELS[method]}
            {method === props.setting ? ' (Settings)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
}

export function AssetPage(props: { asset: string }) {
  const [method, setMethod] = useState<CostMethodName | undefined>(undefined);
  const [scope, setScope] = useState<LedgerScope>('every');
  const settings = useBridgeQuery('ledger.settings');
  const page = useBridgeQuery('ledger.asset', {
    asset: props.asset,
    ...(method ? { method } : {}),
    ...scopeInput(scope),
  });
  const data = page.data;
  const figures = data?.figures;
  return (
    <section className="page" data-testid="screen-asset">
      <PageHeader title={props.asset.toUpperCase()}>
        <AssetAlertButton asset={props.asset} />
        <a href="#/funds" className="small-text">
          ← Funds
        </a>
      </PageHeader>
      <QueryStatus query={page} rows={6} />
      {data && figures && (
        <>
          <div className="card">
            <div style={{ display: 'flex', flexWrap: 'wrap', gap: '0.8rem', alignItems: 'center' }}>
              <MethodPicker
                shown={data.method}
                setting={settings.data?.method}
                onPick={(picked) =>
                  setMethod(picked === settings.data?.method ? undefined : picked)
                }
              />
              <ScopeSwitch
                scope={scope}
                onChange={setScope}
                subAccounts={data.subAccounts}
                testIdPrefix="asset-scope"
              />
            </div>
            <p className="muted small-text" data-testid="asset-scope">
              {data.covers}; cost by {COST_METHOD_LABELS[data.method]}
              {settings.data && data.method !== settings.data.method
                ? ` on this page (Settings: ${COST_METHOD_LABELS[settings.data.method]})`
                : ''}
              , in {data.currency.toUpperCase()}.
              {figures.basisEstimated &&
                ' Part of the cost basis held is an estimate (an inferred credit valued at the market price of its time).'}
            </p>
            <dl className="facts" data-testid="asset-figures">
              <div>
                <dt>Quantity</dt>
                <dd>
                  <Amount value={figures.quantity} asset={data.asset} testId="asset-quantity" />
                </dd>
              </div>
              <div>
                <dt>Value</dt>
                <dd>
                  <Value value={figures.value} quote={data.currency} testId="asset-value" />
                </dd>
              </div>
              <div>
                <dt>Average cost</dt>
                <dd>
                  {figures.averageCost === null ? (
                    '—'
                  ) : (
                    <Price
                      value={figures.averageCost}
                      quote={data.currency}
                      testId="asset-average-cost"
                    />
                  )}
                </dd>
              </div>
              <div>
                <dt>Cost basis</dt>
                <dd>
                  <Value
                    value={figures.costBasis}
                    quote={data.currency}
                    testId="asset-cost-basis"
                  />
                </dd>
              </div>
              <div>
                <dt>Unrealized P&amp;L</dt>
                <dd>
                  <Value
                    value={figures.unrealizedPnl}
                    quote={data.currency}
                    signed
                    testId="asset-unrealized"
                  />
                </dd>
              </div>
              <div>
                <dt>Realized P&amp;L</dt>
                <dd>
                  <Value
                    value={figures.realizedPnl}
                    quote={data.currency}
                    signed
                    testId="asset-realized"
                  />
                </dd>
              </div>
              <div>
                <dt>Fees paid</dt>
                <dd>
                  <Value value={figures.feesPaid} quote={data.currency} />
                </dd>
              </div>
            </dl>
          </div>

          {data.reviews.length > 0 && (
            <div className="card" data-testid="annotation-reviews">
              <h2>Needs your look again</h2>
              <ul style={{ listStyle: 'none', padding: 0 }}>
                {data.reviews.map((review) => (
                  <AnnotationReview key={review.id} review={review} onDone={page.reload} />
                ))}
              </ul>
            </div>
          )}

          {data.history.length > 1 && (
            <div className="card">
              <h2>Holdings over time</h2>
              <table className="table compact" data-testid="asset-history">
                <thead>
                  <tr>
                    <th>Date</th>
                    <th className="num">Quantity</th>
                    <th className="num">Value ({data.currency.toUpperCase()})</th>
                  </tr>
                </thead>
                <tbody>
                  {data.history
                    .filter((_, i, all) => i === all.length - 1 || i % 24 === 0)
                    .map((point) => (
                      <tr key={point.time}>
                        <td>{formatDateTime(point.time)}</td>
                        <td className="num">
                          <Amount value={point.quantity} asset={data.asset} />
                        </td>
                        <td className="num">
                          {point.value === null ? (
                            '—'
                          ) : (
                            <Value value={point.value} quote={data.currency} unit={false} />
                          )}
                        </td>
                      </tr>
                    ))}
                </tbody>
              </table>
            </div>
          )}

          <div className="card">
            <h2>Open lots</h2>
            {data.lots.length === 0 ? (
              <p className="muted">None held.</p>
            ) : (
              <table className="table compact" data-testid="asset-lots">
                <thead>
                  <tr>
                    <th>Acquired</th>
                    <th>Account</th>
                    <th className="num">Quantity</th>
                    <th className="num">Cost</th>
                    <th>Basis</th>
                  </tr>
                </thead>
                <tbody>
                  {data.lots.map((lot, index) => (
                    <tr key={index}>
                      <td>{formatDateTime(lot.acquiredAt)}</td>
                      <td>{lot.account === 'main' ? 'Main' : lot.account}</td>
                      <td className="num">
                        <Amount value={lot.quantity} asset={data.asset} />
                      </td>
                      <td className="num">
                        <Value value={lot.cost} quote={data.currency} unit={false} />
                      </td>
                      <td>{lot.basis}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>

          <div className="card">
            <h2>Trades, withdrawals, transfers and inferred entries</h2>
            <table className="table compact" data-testid="asset-entries">
              <thead>
                <tr>
                  <th>Time</th>
                  <th>Kind</th>
                  <th>What</th>
                  <th className="num">Change</th>
                </tr>
              </thead>
              <tbody>
                {data.entries.map((entry) => (
                  <tr
                    key={`${entry.kind}:${entry.id}:${entry.time}:${entry.account}`}
                    style={entry.kind === 'inferred' ? INFERRED_ROW : undefined}
                    data-testid={`asset-entry-${entry.kind}`}
                  >
                    <td>{formatDateTime(entry.time)}</td>
                    <td>{entry.kind === 'inferred' ? <strong>Inferred</strong> : entry.kind}</td>
                    <td>
                      {entry.description}
                      {entry.account !== 'main' && entry.kind !== 'transfer' && (
                        <span className="muted"> ({entry.account})</span>
                      )}
                      {entry.inferred && (
                        <>
                          <div className="muted small-text" data-testid="inferred-window">
                            {inferredWindow(entry.inferred)}; not in the exchange&apos;s records.
                          </div>
                          {entry.inferred.review && (
                            <div className="small-text" data-testid="inferred-review">
                              <strong>Needs your look again</strong>: new records changed this entry
                              since its label and cost were written (see above).
                            </div>
                          )}
                          <InferredEditor
                            entry={entry}
                            currency={data.currency}
                            onSaved={page.reload}
                          />
                        </>
                      )}
                    </td>
                    <td className="num">
                      <Amount value={entry.amount} asset={data.asset} signed />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
