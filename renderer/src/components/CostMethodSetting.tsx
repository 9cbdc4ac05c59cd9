/** The ledger's cost method for the active profile: FIFO (the default), LIFO, HIFO or average cost. */
import { useState } from 'react';
import {
  COST_METHOD_HINTS,
  COST_METHOD_LABELS,
  COST_METHODS,
  type CostMethodName,
} from '../../../shared/ledger';
import { bridge } from '../lib/bridge';
import { useBridgeQuery } from '../lib/query';
import { InlineError } from './common';

export function CostMethodSetting() {
  const current = useBridgeQuery('ledger.settings');
  const [error, setError] = useState<unknown>(undefined);
  if (!current.data) return null;
  const choose = async (method: CostMethodName) => {
    setError(undefined);
    try {
      await bridge().ledger.setMethod({ method });
      current.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <label className="field">
      <span>Cost basis method (profit and loss, tax reports)</span>
      <select
        value={current.data.method}
        onChange={(e) => void choose(e.target.value as CostMethodName)}
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
