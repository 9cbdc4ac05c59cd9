import { useEffect, useState } from 'react';
import type { ActivityItem, NotificationView } from '../../../shared/types';
import { formatAge, formatDateTime, maskNumbers } from '../../../shared/format';
import { useApp } from '../context';
import { bridge } from '../lib/bridge';
import { useBridgeEvent, useFrameBatcher, useNow } from '../lib/hooks';
import { useBridgeQuery } from '../lib/query';
import { feedLimit, mergeFeed } from '../lib/feed';
import {
  Amount,
  EmptyState,
  ErrorBox,
  PageHeader,
  Skeleton,
  QueryStatus,
  useExchangeStatus,
} from '../components/common';

/**
 * The feed is the private stream's: its badge says "live" only while the stream is, and
 * otherwise since when the updates have been paused.
 */
function FeedBadge() {
  const now = useNow(5000);
  const { connection } = useApp();
  const { streamLive } = useExchangeStatus();
  if (streamLive) {
    return (
      <span className="badge live-dot" data-testid="feed-state" data-state="live">
        live
      </span>
    );
  }
  const connecting = connection.state === 'connecting';
  return (
    <span
      className="badge warn"
      data-testid="feed-state"
      data-state={connection.state}
      title="New order updates, fills and balance changes appear once the stream is back"
    >
      {connecting ? 'connecting…' : `paused · ${formatAge(connection.since, now)}`}
    </span>
  );
}

export function Activity() {
  const { activeProfile, settings } = useApp();
  const [feed, setFeed] = useState<ActivityItem[] | null>(null);
  const [feedError, setFeedError] = useState<unknown>(undefined);
  const notifications = useBridgeQuery('activity.notifications', { limit: 100 });
  const [fresh, setFresh] = useState<NotificationView[]>([]);

  useEffect(() => {
    let live = true;
    bridge()
      .activity.feed({ limit: feedLimit })
      .then(
        (items) => live && setFeed((current) => mergeFeed(current ?? [], items)),
        (error: unknown) => live && setFeedError(error),
      );
    void bridge()
      .activity.markNotificationsRead()
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [activeProfile?.id]);

  const push = useFrameBatcher<ActivityItem>((items) =>
    setFeed((current) => mergeFeed(current ?? [], items)),
  );
  useBridgeEvent('live.batch', (batch) => {
    push([
      ...batch.orders.map((order): ActivityItem => ({ kind: 'order', time: order.time, order })),
      ...batch.trades.map((trade): ActivityItem => ({ kind: 'trade', time: trade.time, trade })),
      ...batch.balances.map((balance): ActivityItem => ({
        kind: 'balance',
        time: balance.time,
        balance,
      })),
    ]);
  });
  useBridgeEvent('notification', (n) =>
    setFresh((list) => [n, ...list.filter((x) => x.id !== n.id)].slice(0, 50)),
  );

  const allNotifications = [
    ...fresh,
    ...(notifications.data ?? []).filter((n) => !fresh.some((f) => f.id === n.id)),
  ];

  return (
    <section className="page" data-testid="screen-activity">
      <PageHeader title="Activity" />
      <div className="grid two">
        <div className="card">
          <h2>
            Live feed <FeedBadge />
          </h2>
          {feedError !== undefined && !feed && <ErrorBox error={feedError} />}
          {!feed && feedError === undefined && <Skeleton rows={6} />}
          {feed && feed.length === 0 && (
            <EmptyState title="Nothing yet">
              Order updates, fills and balance changes appear here as they happen.
            </EmptyState>
          )}
          {feed && feed.length > 0 && (
            <ul className="feed" data-testid="activity-feed" aria-live="polite">
              {feed.map((item, i) => (
                <li key={i} className={`feed-item ${item.kind}`} data-testid={`feed-${item.kind}`}>
                  <span className="feed-time">{formatDateTime(item.time).slice(5)}</span>
                  <FeedText item={item} />
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="card">
          <h2>Notifications</h2>
          <QueryStatus query={notifications} rows={4} />
          {notifications.data && allNotifications.length === 0 && (
            <EmptyState title="No notifications">
              Choose which events notify you in Settings.
            </EmptyState>
          )}
          {allNotifications.length > 0 && (
            <ul className="feed" data-testid="notifications">
              {allNotifications.map((n) => (
                <li
                  key={n.id}
                  className={`feed-item ${n.read ? '' : 'unread'}`}
                  data-testid="notification-item"
                >
                  <span className="feed-time">{formatDateTime(n.time).slice(5)}</span>
                  <span>
                    <strong>{n.title}</strong>{' '}
                    <span className="muted">{maskNumbers(n.body, settings.privacyMode)}</span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}

const orderStatusText = {
  idle: 'waiting for stop',
  wait: 'open',
  done: 'filled',
  cancel: 'canceled',
} as const;

function FeedText({ item }: { item: ActivityItem }) {
  if (item.kind === 'order') {
    const o = item.order;
    return (
      <span>
        <span className="badge">Order</span> <span className={`side-${o.side}`}>{o.side}</span>{' '}
        {o.symbol.toUpperCase()} <Amount value={o.origQty} /> @ <Amount value={o.price} /> —{' '}
        {orderStatusText[o.status]}
        {o.executedQty !== '0' && o.status !== 'done' && (
          <>
            {' '}
            (filled <Amount value={o.executedQty} />)
          </>
        )}
      </span>
    );
  }
  if (item.kind === 'trade') {
    const t = item.trade;
    return (
      <span>
        <span className="badge ok">Fill</span> <span className={`side-${t.side}`}>{t.side}</span>{' '}
        <Amount value={t.qty} /> {t.symbol.toUpperCase()} @ <Amount value={t.price} />
        {/[1-9]/.test(t.fee) ? (
          <>
            , fee <Amount value={t.fee} asset={t.feeCurrency} unit />
          </>
        ) : (
          ', no fee'
        )}
      </span>
    );
  }
  const b = item.balance;
  return (
    <span>
      <span className="badge">Balance</span> {b.asset.toUpperCase()}: free{' '}
      <Amount value={b.free} asset={b.asset} />, locked <Amount value={b.locked} asset={b.asset} />
    </span>
  );
}
