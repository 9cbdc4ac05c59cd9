/**
 * The keychain's entries seen against the record's profiles. An entry whose profile is gone (the
 * record was lost, or restored from a backup older than the profile) is an orphan: it is offered
 * back to the user, who re-attaches it (a profile is made for its key, verified as on adding) or
 * deletes it. Adding a key the keychain already holds reuses its entry instead of making another.
 */
import type { OrphanedKeyView } from '../../shared/types';
import {
  SecretFormatError,
  subAccountOfKeyId,
  type SecretEntry,
  type SecretStore,
} from '../secrets';
import type { Store } from '../store';
import { maskApiKey } from '../store/profiles';
import type { ProfileRow } from '../store/types';
import { AppError } from '../core/app-error';

/** What the keychain already holds for a key being added. */
export interface KeptKey {
  /** A profile of the same key on the same exchange: adding it again makes nothing new. */
  profile?: ProfileRow;
  /** An orphaned entry holding the key: the new profile takes it over. */
  orphanId?: string;
  /** Further orphaned entries of the same key pair, deleted once the key has a profile again. */
  duplicates: string[];
}

/**
 * Profile entries whose profile is gone. A linked sub-account's key is never one: it is not a
 * profile's key (re-attached, it would make a profile of the sub-account), and it goes with its
 * profile's removal or its unlinking.
 */
function orphansOf(store: Store, entries: SecretEntry[]): SecretEntry[] {
  return entries.filter((entry) => !subAccountOfKeyId(entry.id) && !store.profiles.get(entry.id));
}

export async function keptKey(
  store: Store,
  secrets: SecretStore,
  key: { apiKey: string; secretKey: string; baseUrl: string },
): Promise<KeptKey> {
  const entries = await secrets.entries();
  const same = entries.filter((entry) => entry.secret?.apiKey === key.apiKey);
  const profile = same
    .map((entry) => store.profiles.get(entry.id))
    .find((row) => row !== null && !row.isDemo && row.baseUrl === key.baseUrl);
  const orphans = orphansOf(store, same);
  const kept: KeptKey = {
    duplicates: orphans
      .slice(1)
      .filter((e) => e.secret?.secretKey === key.secretKey)
      .map((e) => e.id),
  };
  if (profile) kept.profile = profile;
  if (orphans[0]) kept.orphanId = orphans[0].id;
  return kept;
}

/** The keychain's entries that no profile uses, found with one search of the keychain. */
export async function orphanedKeys(store: Store, secrets: SecretStore): Promise<OrphanedKeyView[]> {
  return orphansOf(store, await secrets.entries()).map((entry) => ({
    id: entry.id,
    apiKeyMasked: entry.secret ? maskApiKey(entry.secret.apiKey) : null,
  }));
}

/** The key pair of an orphaned entry, refused when a profile uses it or it holds no pair. */
export async function orphanedSecret(
  store: Store,
  secrets: SecretStore,
  id: string,
): Promise<{ apiKey: string; secretKey: string }> {
  refuseIfUsed(store, id);
  let secret;
  try {
    secret = await secrets.get(id);
  } catch (error) {
    if (error instanceof SecretFormatError) {
      throw new AppError(
        'invalid-input',
        'That keychain entry does not hold an API key pair; delete it instead.',
        'id',
      );
    }
    throw error;
  }
  if (!secret) throw new AppError('not-found', 'That keychain entry is gone.', 'id');
  return secret;
}

export async function deleteOrphanedKey(
  store: Store,
  secrets: SecretStore,
  id: string,
): Promise<{ deleted: true }> {
  refuseIfUsed(store, id);
  if (!(await secrets.delete(id))) {
    throw new AppError('not-found', 'That keychain entry is gone.', 'id');
  }
  return { deleted: true };
}

function refuseIfUsed(store: Store, id: string): void {
  if (subAccountOfKeyId(id)) {
    throw new AppError(
      'invalid-input',
      "That keychain entry is a linked sub-account's key; unlink it on the Sub-accounts screen.",
      'id',
    );
  }
  const profile = store.profiles.get(id);
  if (profile) {
    throw new AppError(
      'invalid-input',
      `That keychain entry belongs to the profile "${profile.name}"; remove the profile instead.`,
      'id',
    );
  }
}
