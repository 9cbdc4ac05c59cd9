/** settings.get / settings.update: the user's preferences, app-wide, in the settings table. */
import { settingsInput } from '../../shared/contract-schemas';
import type { Settings } from '../../shared/types';
import type { JsonValue } from '../store/types';
import type { ApiContext, HandlerGroup } from './context';

export const DEFAULT_SETTINGS: Settings = {
  quoteAsset: 'usdt',
  theme: 'system',
  privacyMode: false,
  hideSmallBalances: false,
  smallBalanceThreshold: '1',
  priceWarningPercent: '10',
  confirmOrdersAbove: '1000',
  notifications: { fills: true, cancels: true, balances: true, transfers: true, alerts: true },
};

const SETTINGS_KEY = 'settings';

interface SettingsStore {
  get<T extends JsonValue = JsonValue>(key: string, profileId?: string): T | undefined;
  set(key: string, value: JsonValue, profileId?: string): void;
}

/**
 * The stored settings over the defaults. A stored value that no longer validates (written by an
 * older version, or edited by hand) falls back to the default for that field instead of failing.
 */
export function readSettings(settings: SettingsStore): Settings {
  const stored = settings.get(SETTINGS_KEY);
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return DEFAULT_SETTINGS;
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  const shape = settingsInput.shape;
  for (const [key, value] of Object.entries(stored)) {
    const field = shape[key as keyof typeof shape];
    if (!field) continue;
    const parsed = field.safeParse(value);
    if (parsed.success) merged[key] = parsed.data;
  }
  return merged as unknown as Settings;
}

export function writeSettings(settings: SettingsStore, patch: Partial<Settings>): Settings {
  const next: Settings = {
    ...readSettings(settings),
    ...Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)),
  };
  settings.set(SETTINGS_KEY, next as unknown as JsonValue);
  return next;
}

export function settingsHandlers(ctx: ApiContext) {
  return {
    'settings.get': async () => ctx.settings(),
    'settings.update': async (input) => {
      const previous = ctx.settings();
      if (input.quoteAsset !== undefined && input.quoteAsset !== previous.quoteAsset) {
        await ctx.rules.checkQuoteAsset(ctx.session.require().client, input.quoteAsset);
      }
      const next = writeSettings(ctx.store.settings, input);
      ctx.emit('data.changed', { profileId: ctx.session.activeProfileId(), kinds: ['settings'] });
      if (next.quoteAsset !== previous.quoteAsset) {
        // Values in the new quote asset: the screens re-read, prices for it come with sync.
        ctx.emit('data.changed', {
          profileId: ctx.session.activeProfileId(),
          kinds: ['portfolio', 'funds'],
        });
      }
      return next;
    },
  } satisfies HandlerGroup<'settings'>;
}
