/**
 * The money journal's repository on a real record file: an entry and its steps written in one
 * transaction, steps and status updated, what the user must see, the references already claimed,
 * bad input refused, and the rows kept across a reopen (they live in the record, not the cache).
 */
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, StoreInputError } from '../../electron/store';
import { JournalFile } from '../../electron/store/journal-file';
import { tempDir } from '../api/helpers';

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

function storeWithProfile() {
  const dir = tempDir('spotfolio-journal-store-');
  dirs.push(dir);
  const { store } = openStore({ dataDir: dir.path });
  store.profiles.create({
    id: 'p1',
    name: 'Main',
    baseUrl: 'https://api.example',
    streamUrl: 'wss://stream.example',
    apiKeyMasked: 'AbCd…wxyz',
    canTrade: true,
    canWithdraw: false,
    isDemo: false,
    createdAt: 1,
  });
  return { store, dir };
}

const twoLegs = {
  profileId: 'p1',
  kind: 'transfer' as const,
  asset: 'btc',
  amount: '0.5',
  fromEmail: 'a@x.test',
  toEmail: 'b@x.test',
  viaEmail: 'main@x.test',
  steps: [
    { fromEmail: 'a@x.test', toEmail: 'main@x.test' },
    { fromEmail: 'main@x.test', toEmail: 'b@x.test' },
  ],
  createdAt: 1000,
};

describe('JournalRepository', () => {
  it('writes an entry with its steps pending, and updates them as they complete', () => {
    const { store, dir } = storeWithProfile();
    const entry = store.journal.create(twoLegs);
    expect(entry).toMatchObject({
      profileId: 'p1',
      status: 'in-progress',
      notice: false,
      steps: [
        { seq: 1, status: 'pending', windowFrom: null, ref: null },
        { seq: 2, status: 'pending', windowFrom: null, ref: null },
      ],
    });
    store.journal.markStep(entry.id, 1, { status: 'sending', windowFrom: 2000 }, 2001);
    store.journal.markStep(entry.id, 1, { status: 'done', ref: '77' }, 2500);
    const stopped = store.journal.setStatus(
      entry.id,
      { status: 'stopped', fundsAt: 'main@x.test', facts: 'left a, in main' },
      2600,
    );
    expect(stopped).toMatchObject({
      status: 'stopped',
      fundsAt: 'main@x.test',
      updatedAt: 2600,
      steps: [
        { status: 'done', windowFrom: 2000, ref: '77', updatedAt: 2500 },
        { status: 'pending' },
      ],
    });
    expect(store.journal.claimedRefs('p1')).toEqual(new Set(['77']));
    expect(store.journal.visible('p1').map((e) => e.id)).toEqual([entry.id]);
    store.close();

    // The record keeps it across a restart.
    const reopened = openStore({ dataDir: dir.path }).store;
    expect(reopened.journal.get(entry.id)).toMatchObject({
      status: 'stopped',
      facts: 'left a, in main',
    });
    expect(reopened.journal.withStatus('p1', ['stopped']).map((e) => e.id)).toEqual([entry.id]);
    reopened.close();
  });

  it('shows what is unsettled, stopped or noticed, and nothing settled in view of the user', () => {
    const { store } = storeWithProfile();
    const done = store.journal.create(twoLegs);
    store.journal.setStatus(done.id, { status: 'completed' }, 2000);
    const noticed = store.journal.create(twoLegs);
    store.journal.setStatus(noticed.id, { status: 'not-made', notice: true }, 2000);
    const open = store.journal.create(twoLegs);
    expect(store.journal.visible('p1').map((e) => e.id)).toEqual([open.id, noticed.id]);
    store.journal.setStatus(noticed.id, { status: 'not-made', notice: false }, 3000);
    expect(store.journal.visible('p1').map((e) => e.id)).toEqual([open.id]);
    expect(store.journal.withStatus('p1', ['in-progress', 'unknown']).map((e) => e.id)).toEqual([
      open.id,
    ]);
    store.close();
  });

  it('refuses bad input naming it, and goes with its profile', () => {
    const { store } = storeWithProfile();
    expect(() => store.journal.create({ ...twoLegs, amount: '1e5' })).toThrow(StoreInputError);
    expect(() => store.journal.create({ ...twoLegs, steps: [] })).toThrow('needs a step');
    const entry = store.journal.create(twoLegs);
    expect(() => store.journal.markStep(entry.id, 3, { status: 'done' }, 1)).toThrow('no step 3');
    expect(() => store.journal.setStatus(entry.id, { status: 'lost' as 'completed' }, 1)).toThrow(
      'journal status "lost" is unknown',
    );
    store.profiles.delete('p1');
    expect(store.journal.get(entry.id)).toBeUndefined();
    store.close();
  });
});

describe("the journal's own file", () => {
  it('holds each write; a torn last line is skipped; compaction keeps what may be in flight', () => {
    const { store, dir } = storeWithProfile();
    const DAY = 24 * 60 * 60 * 1000;
    const now = 400 * DAY;
    const open = store.journal.create({ ...twoLegs, createdAt: now - 200 * DAY });
    store.journal.markStep(open.id, 1, { status: 'done', ref: 't1' }, now - 200 * DAY);
    const old = store.journal.create({ ...twoLegs, amount: '0.25', createdAt: now - 200 * DAY });
    store.journal.setStatus(old.id, { status: 'completed' }, now - 200 * DAY);
    const recent = store.journal.create({ ...twoLegs, amount: '0.125', createdAt: now - DAY });
    store.journal.setStatus(recent.id, { status: 'completed' }, now - DAY);
    store.close();

    const file = JournalFile.in(dir.path);
    appendFileSync(file.path, '{"id": 99, "steps": [');
    expect(file.latest().map((e) => [e.id, e.status, e.steps[0]!.status])).toEqual([
      [open.id, 'in-progress', 'done'],
      [old.id, 'completed', 'pending'],
      [recent.id, 'completed', 'pending'],
    ]);
    file.compact(now);
    expect(file.latest().map((e) => e.id)).toEqual([open.id, recent.id]);
    expect(readFileSync(file.path, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
  });
});
