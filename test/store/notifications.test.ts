import { afterEach, describe, expect, it } from 'vitest';
import { freshStore, removeTempDirs } from './helpers';

afterEach(removeTempDirs);

describe('notifications', () => {
  it('add, list newest first, unread filter, mark read, prune', () => {
    const store = freshStore('p1', 'p2');
    const first = store.notifications.add('p1', {
      kind: 'fill',
      title: 'Filled',
      body: 'btcusdt buy 1',
      time: 10,
    });
    const second = store.notifications.add('p1', {
      kind: 'cancel',
      title: 'Canceled',
      body: 'order 7',
      time: 20,
    });
    store.notifications.add('p1', { kind: 'balance', title: 'Balance', body: 'BTC +1', time: 30 });
    store.notifications.add('p2', { kind: 'transfer', title: 'Other', body: 'x', time: 5 });
    expect(second.id).toBeGreaterThan(first.id);
    expect(store.notifications.list('p1').map((n) => n.title)).toEqual([
      'Balance',
      'Canceled',
      'Filled',
    ]);
    expect(store.notifications.unreadCount('p1')).toBe(3);
    expect(store.notifications.markRead('p1', [first.id, first.id])).toBe(1);
    expect(store.notifications.list('p1', { unreadOnly: true }).map((n) => n.title)).toEqual([
      'Balance',
      'Canceled',
    ]);
    expect(store.notifications.list('p1', { limit: 1 })).toEqual([
      {
        id: first.id + 2,
        kind: 'balance',
        title: 'Balance',
        body: 'BTC +1',
        time: 30,
        read: false,
      },
    ]);
    expect(store.notifications.markRead('p1', 'all')).toBe(2);
    expect(store.notifications.unreadCount('p1')).toBe(0);
    expect(store.notifications.unreadCount('p2')).toBe(1);
    expect(store.notifications.prune('p1', 1)).toBe(2);
    expect(store.notifications.list('p1').map((n) => n.title)).toEqual(['Balance']);
    expect(() =>
      store.notifications.add('p1', { kind: 'spam' as 'fill', title: '', body: '', time: 1 }),
    ).toThrow('notification kind "spam" is unknown');
    store.close();
  });
});

describe('sync state', () => {
  it('stores a JSON cursor per kind, overwrites, lists, deletes', () => {
    const store = freshStore();
    store.syncState.set('p1', 'withdraws', { coveredFrom: 100, coveredTo: 200 }, 1000);
    store.syncState.set('p1', 'trades:btcusdt', { fromId: 42 }, 1001);
    store.syncState.set('p1', 'withdraws', { coveredFrom: 50, coveredTo: 300 }, 1002);
    expect(store.syncState.get('p1', 'withdraws')).toEqual({
      kind: 'withdraws',
      cursor: { coveredFrom: 50, coveredTo: 300 },
      updatedAt: 1002,
    });
    expect(store.syncState.list('p1').map((s) => s.kind)).toEqual(['trades:btcusdt', 'withdraws']);
    expect(store.syncState.delete('p1', 'withdraws')).toBe(true);
    expect(store.syncState.get('p1', 'withdraws')).toBeNull();
    store.close();
  });

  it('a multi-repository step in store.transaction is all or nothing', () => {
    const store = freshStore();
    expect(() =>
      store.transaction(() => {
        store.funds.replaceAll('p1', [{ asset: 'BTC', free: '1', locked: '0' }], 10);
        store.syncState.set('p1', 'funds', { at: 10 }, 10);
        throw new Error('exchange answered garbage half-way');
      }),
    ).toThrow('half-way');
    expect(store.funds.list('p1').rows).toEqual([]);
    expect(store.syncState.get('p1', 'funds')).toBeNull();

    const result = store.transaction(() => {
      store.funds.replaceAll('p1', [{ asset: 'BTC', free: '1', locked: '0' }], 10);
      store.syncState.set('p1', 'funds', { at: 10 }, 10);
      return 'done';
    });
    expect(result).toBe('done');
    expect(store.funds.list('p1').rows).toHaveLength(1);
    expect(store.syncState.get('p1', 'funds')?.cursor).toEqual({ at: 10 });
    store.close();
  });
});
