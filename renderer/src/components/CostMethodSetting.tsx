/** The ledger's cost method for the active profile: FIFO (the default), LIFO, HIFO or average cost. */
import {
  COST_METHOD_HINTS,
  COST_METHOD_LABELS,
  COST_METHODS,
  type CostMethodName,
} from '../../../shared/ledger';
import { useBridgeAction, useBridgeQuery } from '../lib/query';
import { InlineError } from './common';

export function CostMethodSetting() {
  const current = useBridgeQuery('ledger.settings');
  // A second choice is sent even while the first is on its way: the last one chosen holds.
  const setMethod = useBridgeAction('ledger.setMethod', {
    concurrent: true,
    onSuccess: () => current.reload(),
  });
  const { error } = setMethod;
  if (!current.data) return null;
  const choose = (method: CostMethodName) => void setMethod.run({ method });
  return (
    <label className="field">
      <span>Cost basis method (profit and loss, tax reports)</span>
      <select
        value={current.data.method}
        onChange={(e) => choose(e.target.value as CostMethodName)}
        data-testid="cost-method"
      >
        {COST_METHODS.map((method) => (
          <option key={method} value={method}>
            {COST_METHOD_LABELS[method]}
          </option>
        ))}
      </select>
      <small className="muted" data-testid="cost-method-hint">
        {COST_METHOD_HINTS[current.data.method]}
      </small>
      {error !== undefined && <InlineError error={error} />}
    </label>
  );
}
