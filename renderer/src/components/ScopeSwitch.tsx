/**
 * The switch between every account together and the main account alone, for the ledger's
 * figures (the P&L card, net worth, the asset page): shown when the profile has sub-accounts (with
 * none the two are the same) or while the main account is chosen, so it can be switched back.
 * The Orders screen's switch adds each sub-account (AccountScopeSwitch).
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

/**
 * The accounts a screen of orders and trades shows: every account together, the main account, or
 * one sub-account (its e-mail).
 */
export type AccountScope = 'every' | typeof MAIN_ACCOUNT | (string & {});

/** The orders methods' input for a scope: the account named, or none for every account. */
export function accountScopeInput(scope: AccountScope): { account?: string } {
  return scope === 'every' ? {} : { account: scope };
}

/**
 * The switch between every account, the main account and each sub-account, for the Orders
 * screen: shown when the profile has sub-accounts (or while one account is chosen, so it can be
 * switched back).
 */
export function AccountScopeSwitch(props: {
  scope: AccountScope;
  onChange: (scope: AccountScope) => void;
  /** The profile's sub-accounts, once known. */
  subAccounts: readonly string[] | undefined;
  testIdPrefix: string;
}) {
  const subAccounts = props.subAccounts ?? [];
  if (props.scope === 'every' && subAccounts.length === 0) return null;
  const options: { value: AccountScope; label: string }[] = [
    ...SCOPES,
    ...subAccounts.map((email) => ({ value: email, label: email })),
  ];
  // A sub-account chosen before the list is known keeps its button.
  if (!options.some((option) => option.value === props.scope)) {
    options.push({ value: props.scope, label: props.scope });
  }
  return (
    <Segmented
      label="Accounts shown"
      options={options}
      value={props.scope}
      onChange={props.onChange}
      testIdPrefix={props.testIdPrefix}
    />
  );
}
