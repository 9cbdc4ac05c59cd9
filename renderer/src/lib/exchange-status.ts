/**
 * The one reading of "is the exchange live, stale or offline" that every badge and banner shows:
 * the top bar's connection badge, the screens' banners and "as of" marks, Activity's live feed.
 * The REST interface and the private stream are told apart (balances refresh over REST while the
 * stream is down; live updates flow while REST calls fail), and with no profile there is nothing
 * to be connected to, so nothing is shown.
 */
import type { ConnectionState, RestStatus } from '../../../shared/types';

export type ExchangeStatusKind =
  /** No active profile: no exchange, no badge. */
  | 'none'
  | 'connecting'
  | 'live'
  /** REST answers, the stream is down: data refreshes, live updates wait. */
  | 'stream-down'
  /** The stream is live, REST calls fail. */
  | 'rest-down'
  /** Neither answers. */
  | 'offline'
  /** Neither answers, and the address has refused every connection for a while. */
  | 'refused';

export interface ExchangeStatus {
  kind: ExchangeStatusKind;
  /** The badge's words; empty for 'none'. */
  label: string;
  /** The badge's look (a CSS class of `.connection`). */
  tone: 'live' | 'connecting' | 'reconnecting' | 'offline';
  /** Whether data read over REST is going stale now. */
  restDown: boolean;
  /** Whether live updates of the private stream arrive now. */
  streamLive: boolean;
  /** Since when the badge's state holds (ms), for "· 2 min ago"; null when not to be shown. */
  since: number | null;
}

const streamLabels: Record<ConnectionState, string> = {
  connecting: 'stream connecting…',
  live: 'stream live',
  reconnecting: 'stream reconnecting…',
  offline: 'stream offline',
};

export function exchangeStatus(
  hasProfile: boolean,
  stream: { state: ConnectionState; since: number },
  rest: RestStatus,
): ExchangeStatus {
  const streamLive = stream.state === 'live';
  const restDown = rest.state === 'offline';
  const base = { restDown: hasProfile && restDown, streamLive: hasProfile && streamLive };
  if (!hasProfile) {
    return { ...base, kind: 'none', label: '', tone: 'connecting', since: null };
  }
  const restSince = rest.since ?? stream.since;
  if (restDown && streamLive) {
    return {
      ...base,
      kind: 'rest-down',
      label: 'REST offline, stream live',
      tone: 'reconnecting',
      since: restSince,
    };
  }
  if (restDown) {
    const since = Math.min(restSince, stream.since);
    if (rest.refused) {
      return {
        ...base,
        kind: 'refused',
        label: 'Offline',
        tone: 'offline',
        since: rest.refused.since,
      };
    }
    const label = stream.state === 'reconnecting' ? 'Reconnecting…' : 'Offline';
    return { ...base, kind: 'offline', label, tone: 'offline', since };
  }
  if (streamLive) return { ...base, kind: 'live', label: 'Live', tone: 'live', since: null };
  if (stream.state === 'connecting') {
    return { ...base, kind: 'connecting', label: 'Connecting…', tone: 'connecting', since: null };
  }
  if (rest.state === 'ok') {
    return {
      ...base,
      kind: 'stream-down',
      label: `REST ok, ${streamLabels[stream.state]}`,
      tone: 'reconnecting',
      since: stream.since,
    };
  }
  // REST not asked yet and the stream down: nothing has answered so far.
  const reconnecting = stream.state === 'reconnecting';
  return {
    ...base,
    kind: 'offline',
    label: reconnecting ? 'Reconnecting…' : 'Offline',
    tone: reconnecting ? 'reconnecting' : 'offline',
    since: stream.since,
  };
}
