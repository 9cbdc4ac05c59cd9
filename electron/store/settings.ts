/** Settings as JSON values: app-wide (no profile) or per profile (deleted with the profile). */
import type Database from 'better-sqlite3';
import type { JsonValue } from './types';
import { StoreInputError } from './util';

export class SettingsRepository {
  private readonly getGlobal;
  private readonly getProfile;
  private readonly setGlobal;
  private readonly setProfile;
  private readonly deleteGlobal;
  private readonly deleteProfile;
  private readonly allGlobal;
  private readonly allProfile;

  constructor(db: Database.Database) {
    this.getGlobal = db.prepare<[string], { value: string }>(
      'SELECT value FROM app_settings WHERE key = ?',
    );
    this.getProfile = db.prepare<[string, string], { value: string }>(
      'SELECT value FROM profile_settings WHERE profile_id = ? AND key = ?',
    );
    this.setGlobal = db.prepare<[string, string]>(
      `INSERT INTO app_settings (key, value) VALUES (?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    );
    this.setProfile = db.prepare<[string, string, string]>(
      `INSERT INTO profile_settings (profile_id, key, value) VALUES (?, ?, ?)
       ON CONFLICT (profile_id, key) DO UPDATE SET value = excluded.value`,
    );
    this.deleteGlobal = db.prepare<[string]>('DELETE FROM app_settings WHERE key = ?');
    this.deleteProfile = db.prepare<[string, string]>(
      'DELETE FROM profile_settings WHERE profile_id = ? AND key = ?',
    );
    this.allGlobal = db.prepare<[], { key: string; value: string }>(
      'SELECT key, value FROM app_settings ORDER BY key',
    );
    this.allProfile = db.prepare<[string], { key: string; value: string }>(
      'SELECT key, value FROM profile_settings WHERE profile_id = ? ORDER BY key',
    );
  }

  /** The value of `key` (app-wide when profileId is omitted), or undefined when unset. */
  get<T extends JsonValue = JsonValue>(key: string, profileId?: string): T | undefined {
    const row =
      profileId === undefined ? this.getGlobal.get(key) : this.getProfile.get(profileId, key);
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  set(key: string, value: JsonValue, profileId?: string): void {
    if (!key) throw new StoreInputError('setting key must not be empty');
    const text = JSON.stringify(value);
    if (text === undefined) throw new StoreInputError(`setting ${key} is not a JSON value`);
    if (profileId === undefined) this.setGlobal.run(key, text);
    else this.setProfile.run(profileId, key, text);
  }

  delete(key: string, profileId?: string): boolean {
    const result =
      profileId === undefined ? this.deleteGlobal.run(key) : this.deleteProfile.run(profileId, key);
    return result.changes > 0;
  }

  /** Every setting of the scope as one object. */
  all(profileId?: string): Record<string, JsonValue> {
    const rows = profileId === undefined ? this.allGlobal.all() : this.allProfile.all(profileId);
    const result: Record<string, JsonValue> = {};
    for (const row of rows) result[row.key] = JSON.parse(row.value) as JsonValue;
    return result;
  }
}
