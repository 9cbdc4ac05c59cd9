/**
 * The user's preferences as the record keeps them: app-wide, one JSON value in the settings
 * table, read over the defaults.
 */
import { settingsInput } from '../../shared/contract-schemas';
import type { Settings } from '../../shared/types';
import type { JsonValue } from '../store/types';

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

/** The record's app-wide settings table (store.settings). */
export interface SettingsRecord {
  get<T extends JsonValue = JsonValue>(key: string, profileId?: string): T | undefined;
  set(key: string, value: JsonValue, profileId?: string): void;
}

/**
 * The stored settings over the defaults. A stored value that no longer validates (written by an
 * older version, or edited by hand) falls back to the default for that field instead of failing.
 */
export function readSettings(record: SettingsRecord): Settings {
  const stored = record.get(SETTINGS_KEY);
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

/** Writes the fields of `patch` that are set over the settings as they stand; the result. */
export function writeSettings(record: SettingsRecord, patch: Partial<Settings>): Settings {
  const next: Settings = {
    ...readSettings(record),
    ...Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)),
  };
  record.set(SETTINGS_KEY, next as unknown as JsonValue);
  return next;
}
