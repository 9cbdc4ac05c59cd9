/** Profiles: one per exchange account the user added. Never holds a secret (see maskApiKey). */
import type Database from 'better-sqlite3';
import type { ProfileInput, ProfilePatch, ProfileRow } from './types';
import { integerMs, StoreInputError } from './util';

/** "AbCd…wxyz": enough to recognise a key; short keys show only their last 2 characters. */
export function maskApiKey(apiKey: string): string {
  if (apiKey.length >= 12) return `${apiKey.slice(0, 4)}…${apiKey.slice(-4)}`;
  return `…${apiKey.slice(-2)}`;
}

interface ProfileDbRow {
  id: string;
  name: string;
  baseUrl: string;
  streamUrl: string;
  apiKeyMasked: string;
  canTrade: number;
  canWithdraw: number;
  isDemo: number;
  createdAt: number;
}

const COLUMNS = `id, name, base_url AS baseUrl, stream_url AS streamUrl,
  api_key_masked AS apiKeyMasked, can_trade AS canTrade, can_withdraw AS canWithdraw,
  is_demo AS isDemo, created_at AS createdAt`;

function toRow(row: ProfileDbRow): ProfileRow {
  return {
    ...row,
    canTrade: row.canTrade === 1,
    canWithdraw: row.canWithdraw === 1,
    isDemo: row.isDemo === 1,
  };
}

export class ProfilesRepository {
  private readonly insertStatement;
  private readonly updateStatement;
  private readonly getStatement;
  private readonly listStatement;
  private readonly removedStatement;
  private readonly setRemovedStatement;
  private readonly existsStatement;
  private readonly deleteStatement;

  constructor(private readonly db: Database.Database) {
    this.insertStatement = db.prepare(`INSERT INTO profiles
      (id, name, base_url, stream_url, api_key_masked, can_trade, can_withdraw, is_demo, created_at)
      VALUES (@id, @name, @baseUrl, @streamUrl, @apiKeyMasked, @canTrade, @canWithdraw, @isDemo, @createdAt)`);
    this.updateStatement = db.prepare(`UPDATE profiles SET name = @name, base_url = @baseUrl,
      stream_url = @streamUrl, api_key_masked = @apiKeyMasked, can_trade = @canTrade,
      can_withdraw = @canWithdraw, is_demo = @isDemo WHERE id = @id`);
    this.getStatement = db.prepare<[string], ProfileDbRow>(
      `SELECT ${COLUMNS} FROM profiles WHERE id = ? AND removed_at IS NULL`,
    );
    this.listStatement = db.prepare<[], ProfileDbRow>(
      `SELECT ${COLUMNS} FROM profiles WHERE removed_at IS NULL ORDER BY created_at, id`,
    );
    this.removedStatement = db.prepare<[], ProfileDbRow & { removedAt: number }>(
      `SELECT ${COLUMNS}, removed_at AS removedAt FROM profiles WHERE removed_at IS NOT NULL
       ORDER BY removed_at DESC, id`,
    );
    this.setRemovedStatement = db.prepare<[number | null, string]>(
      'UPDATE profiles SET removed_at = ? WHERE id = ?',
    );
    this.existsStatement = db.prepare<[string], { one: number }>(
      'SELECT 1 AS one FROM profiles WHERE id = ?',
    );
    this.deleteStatement = db.prepare<[string]>('DELETE FROM profiles WHERE id = ?');
  }

  /** Adds a profile; throws StoreInputError when the id exists already. */
  create(profile: ProfileInput): ProfileRow {
    if (!profile.id) throw new StoreInputError('profile id must not be empty');
    integerMs(profile.createdAt, 'createdAt');
    if (this.existsStatement.get(profile.id)) {
      throw new StoreInputError(`profile ${profile.id} exists already`);
    }
    this.insertStatement.run(this.params(profile));
    return this.require(profile.id);
  }

  update(id: string, patch: ProfilePatch): ProfileRow {
    const current = this.require(id);
    this.updateStatement.run(this.params({ ...current, ...patch, id }));
    return this.require(id);
  }

  get(id: string): ProfileRow | null {
    const row = this.getStatement.get(id);
    return row ? toRow(row) : null;
  }

  list(): ProfileRow[] {
    return this.listStatement.all().map(toRow);
  }

  /**
   * Removes the profile softly: it is no longer listed or used, and every row of its own in the
   * record stays, so restore() brings it back whole. Its cache rows go (the exchange gives them
   * back). Returns false if absent or removed already.
   */
  archive(id: string, at: number): boolean {
    integerMs(at, 'removedAt');
    return this.db.transaction(() => {
      if (!this.get(id)) return false;
      this.setRemovedStatement.run(at, id);
      this.clearCache(id);
      return true;
    })();
  }

  /** Profiles removed softly, the newest removal first, with when. */
  removed(): (ProfileRow & { removedAt: number })[] {
    return this.removedStatement.all().map((row) => ({ ...toRow(row), removedAt: row.removedAt }));
  }

  /** Lists a removed profile again, with what changed meanwhile (its key's permissions). */
  restore(id: string, patch: ProfilePatch = {}): ProfileRow {
    if (!this.removed().some((row) => row.id === id)) {
      throw new StoreInputError(`profile ${id} is not a removed profile`);
    }
    this.setRemovedStatement.run(null, id);
    return this.update(id, patch);
  }

  /**
   * Deletes the profile for good with its record rows (by cascade) and its cache rows: only for
   * a demo profile and the reset, which takes a kept backup first. Returns false if absent.
   */
  delete(id: string): boolean {
    return this.db.transaction(() => {
      const removed = this.deleteStatement.run(id).changes > 0;
      this.clearCache(id);
      return removed;
    })();
  }

  /** A foreign key cannot reach into the cache's file: every table with a profile_id is cleared. */
  private clearCache(id: string): void {
    for (const table of cacheTablesWithProfileId(this.db)) {
      this.db.prepare(`DELETE FROM cache."${table}" WHERE profile_id = ?`).run(id);
    }
  }

  private require(id: string): ProfileRow {
    const row = this.get(id);
    if (!row) throw new StoreInputError(`profile ${id} does not exist`);
    return row;
  }

  private params(profile: ProfileRow): Record<string, unknown> {
    return {
      id: profile.id,
      name: profile.name,
      baseUrl: profile.baseUrl,
      streamUrl: profile.streamUrl,
      apiKeyMasked: profile.apiKeyMasked,
      canTrade: profile.canTrade ? 1 : 0,
      canWithdraw: profile.canWithdraw ? 1 : 0,
      isDemo: profile.isDemo ? 1 : 0,
      createdAt: profile.createdAt,
    };
  }
}

/** The cache's tables keyed by profile; none when no cache is attached to this connection. */
function cacheTablesWithProfileId(db: Database.Database): string[] {
  const attached = (db.pragma('database_list') as { name: string }[]).some(
    (database) => database.name === 'cache',
  );
  if (!attached) return [];
  return (
    db
      .prepare(
        `SELECT m.name AS name FROM cache.sqlite_schema AS m
         WHERE m.type = 'table' AND EXISTS (
           SELECT 1 FROM pragma_table_info(m.name, 'cache') WHERE name = 'profile_id')`,
      )
      .all() as { name: string }[]
  ).map((row) => row.name);
}
