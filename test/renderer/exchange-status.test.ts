/** The one reading of the exchange's state that every badge and banner shows. */
import { describe, expect, it } from 'vitest';
import { exchangeStatus } from '../../renderer/src/lib/exchange-status';
import type { ConnectionState, RestStatus } from '../../shared/types';

const at = (state: ConnectionState, since = 1_000) => ({ state, since });
const ok: RestStatus = { state: 'ok', since: 500 };
const down: RestStatus = { state: 'offline', since: 700, message: 'GET /sapi/v1/funds failed' };
const unknown: RestStatus = { state: 'unknown', since: null };

describe('exchangeStatus', () => {
  it('shows nothing without a profile, whatever the stream says', () => {
    for (const stream of ['offline', 'connecting', 'reconnecting', 'live'] as const) {
      expect(exchangeStatus(false, at(stream), unknown)).toMatchObject({
        kind: 'none',
        label: '',
        since: null,
        restDown: false,
        streamLive: false,
      });
    }
  });

  it('tells REST and the stream apart', () => {
    expect(exchangeStatus(true, at('live'), ok)).toMatchObject({
      kind: 'live',
      label: 'Live',
      since: null,
    });
    expect(exchangeStatus(true, at('connecting'), unknown)).toMatchObject({
      kind: 'connecting',
      label: 'Connecting…',
    });
    expect(exchangeStatus(true, at('reconnecting', 2_000), ok)).toMatchObject({
      kind: 'stream-down',
      label: 'REST ok, stream reconnecting…',
      tone: 'reconnecting',
      since: 2_000,
      restDown: false,
      streamLive: false,
    });
    expect(exchangeStatus(true, at('live'), down)).toMatchObject({
      kind: 'rest-down',
      label: 'REST offline, stream live',
      since: 700,
      restDown: true,
      streamLive: true,
    });
    expect(exchangeStatus(true, at('offline', 900), down)).toMatchObject({
      kind: 'offline',
      label: 'Offline',
      tone: 'offline',
      since: 700,
    });
  });

  it('names a refusing address apart from a plain outage', () => {
    const refused: RestStatus = { ...down, refused: { since: 400, attempts: 3 } };
    expect(exchangeStatus(true, at('reconnecting'), refused)).toMatchObject({
      kind: 'refused',
      label: 'Offline',
      tone: 'offline',
      since: 400,
      restDown: true,
    });
  });
});
