import type { ProfileView } from '../../../shared/types';

type Permissions = Pick<ProfileView, 'canTrade' | 'canWithdraw' | 'canTransfer'>;

function list(words: string[], conjunction: 'and' | 'or'): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}

/** What a key may do and may not, in words: "This key may read and withdraw. It may not …". */
export function permissionsText(profile: Permissions): string {
  const may = ['read'];
  const mayNot: string[] = [];
  (profile.canTrade ? may : mayNot).push('trade');
  (profile.canWithdraw ? may : mayNot).push('withdraw');
  (profile.canTransfer ? may : mayNot).push('make sub-account transfers');
  const first = `This key may ${list(may, 'and')}.`;
  return mayNot.length === 0 ? first : `${first} It may not ${list(mayNot, 'or')}.`;
}

/** Why a trading control is disabled, for its title and the notice beside it. */
export function noTradeReason(profile: Pick<ProfileView, 'name'>): string {
  return `The key of "${profile.name}" may read but not trade`;
}

/**
 * The notice shown in place of an action the active key may not take: what the key may do, what
 * is disabled, and how to change that.
 */
export function KeyPermissions(props: { profile: ProfileView; disabled: string }) {
  return (
    <div className="banner info key-permissions" role="note" data-testid="key-permissions">
      <strong>{permissionsText(props.profile)}</strong>{' '}
      <span>
        {props.disabled} Give the key this permission on the exchange, or switch to a profile whose
        key has it.
      </span>
    </div>
  );
}
