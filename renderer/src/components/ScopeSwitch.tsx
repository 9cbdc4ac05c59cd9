/**
 * The switch between every account together and the main account alone, for the ledger's
 * figures (the P&L card, net worth, the asset page): shown when the profile has sub-accounts (with
 * none the two are the same) or while the main account is chosen, so it can be switched back.
 */
import { MAIN_ACCOUNT } from '../../../shared/ledger';
import { Segmented } from './common';

export type LedgerScope = 'every' | 'main';

const SCOPES: { value: LedgerScope; label: string }[] = [
  { value: 'every', label: 'Every account' },
  { value: 'main', label: 'Main account' },
];

/** The ledger methods' input for a scope: the main account named, or none for every account. */
export function scopeInput(scope: LedgerScope): { account?: string } {
  return scope === 'main' ? { account: MAIN_ACCOUNT } : {};
}

export function ScopeSwitch(props: {
  scope: LedgerScope;
  onChange: (scope: LedgerScope) => void;
  /** The profile's sub-accounts, once known. */
  subAccounts: readonly string[] | undefined;
  testIdPrefix: string;
}) {
  if (props.scope !== 'main' && (props.subAccounts?.length ?? 0) === 0) return null;
  return (
    <Segmented
      label="Accounts the figures cover"
      options={SCOPES}
      value={props.scope}
      onChange={props.onChange}
      testIdPrefix={props.testIdPrefix}
    />
  );
}
