/**
 * Changing the user's preferences: a new quote asset is checked against what the exchange lists
 * before anything is written, and the screens are told what the change makes stale (a new quote
 * asset revalues the portfolio and the funds). One SettingsEditor, built in app.ts.
 */
import type { MethodParsedInput } from '../../shared/contract';
import type { Settings } from '../../shared/types';
import type { Emit } from '../core/events';
import type { ExchangeRules } from '../rules/exchange-rules';
import { readSettings, writeSettings, type SettingsRecord } from './stored';

/** What the editor needs of the sessions: the active profile and its client. */
export interface SettingsSessions {
  activeProfileId(): string | null;
  /** The active session; refuses when no profile is active. */
  require(): { readonly client: Parameters<ExchangeRules['checkQuoteAsset']>[0] };
}

export interface SettingsEditorDeps {
  record: SettingsRecord;
  rules: ExchangeRules;
  sessions: SettingsSessions;
  emit: Emit;
}

export class SettingsEditor {
  constructor(private readonly deps: SettingsEditorDeps) {}

  /** Writes the fields given; a quote asset other than the one set must be listed. */
  async update(patch: MethodParsedInput<'settings.update'>): Promise<Settings> {
    const { record, rules, sessions, emit } = this.deps;
    const previous = readSettings(record);
    if (patch.quoteAsset !== undefined && patch.quoteAsset !== previous.quoteAsset) {
      await rules.checkQuoteAsset(sessions.require().client, patch.quoteAsset);
    }
    const next = writeSettings(record, patch);
    emit('data.changed', { profileId: sessions.activeProfileId(), kinds: ['settings'] });
    if (next.quoteAsset !== previous.quoteAsset) {
      // Values in the new quote asset: the screens re-read, prices for it come with sync.
      emit('data.changed', {
        profileId: sessions.activeProfileId(),
        kinds: ['portfolio', 'funds'],
      });
    }
    return next;
  }
}
