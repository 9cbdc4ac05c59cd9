import { useState } from 'react';
import type { Settings } from '../../../shared/types';

/**
 * The order safeguards of Settings: how far from the last price an order's price may be before
 * its review warns, and the order value above which placing it asks for the lock password again
 * (when a password is set and the last unlock is a few minutes old). Each is saved when the field
 * is left; raising the value asks for the password itself.
 */
export function OrderSettings(props: {
  settings: Settings;
  save: (patch: Partial<Settings>) => Promise<void>;
}) {
  const { settings, save } = props;
  const [priceWarning, setPriceWarning] = useState(settings.priceWarningPercent);
  const [confirmAbove, setConfirmAbove] = useState(settings.confirmOrdersAbove);
  const quote = settings.quoteAsset.toUpperCase();
  return (
    <>
      <h2>Orders</h2>
      <label className="field">
        <span>Warn when an order&apos;s price is more than this far from the last price (%)</span>
        <input
          inputMode="decimal"
          value={priceWarning}
          onChange={(e) => setPriceWarning(e.target.value)}
          onBlur={() =>
            priceWarning !== settings.priceWarningPercent &&
            void save({ priceWarningPercent: priceWarning.trim() })
          }
          data-testid="price-warning-percent"
        />
      </label>
      <label className="field">
        <span>Ask for the lock password before placing an order worth more than ({quote})</span>
        <input
          inputMode="decimal"
          value={confirmAbove}
          onChange={(e) => setConfirmAbove(e.target.value)}
          onBlur={() =>
            confirmAbove !== settings.confirmOrdersAbove &&
            void save({ confirmOrdersAbove: confirmAbove.trim() })
          }
          aria-describedby="confirm-orders-above-note"
          data-testid="confirm-orders-above"
        />
        <small className="muted" id="confirm-orders-above-note">
          Only with a lock password, once the last unlock is a few minutes old. Raising it asks for
          the password too.
        </small>
      </label>
    </>
  );
}
