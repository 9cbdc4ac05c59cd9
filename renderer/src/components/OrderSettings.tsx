import type { Settings } from '../../../shared/types';
import { SavedDecimalField } from './SavedField';

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
  return (
    <>
      <h2>Orders</h2>
      <SavedDecimalField
        label="Warn when an order's price is more than this far from the last price (%)"
        saved={settings.priceWarningPercent}
        save={(priceWarningPercent) => save({ priceWarningPercent })}
        testId="price-warning-percent"
      />
      <SavedDecimalField
        label={`Ask for the lock password before placing an order worth more than (${settings.quoteAsset.toUpperCase()})`}
        saved={settings.confirmOrdersAbove}
        save={(confirmOrdersAbove) => save({ confirmOrdersAbove })}
        testId="confirm-orders-above"
        note={{
          id: 'confirm-orders-above-note',
          text: 'Only with a lock password, once the last unlock is a few minutes old. Raising it asks for the password too.',
        }}
      />
    </>
  );
}
