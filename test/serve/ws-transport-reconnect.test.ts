import { describe, expect, it } from 'vitest';
import { createWsTransport, type SocketLike } from '../../renderer/src/bridge/ws-transport';

/** A socket the test opens, answers and drops by hand. */
class ScriptedSocket implements SocketLike {
  readyState = 0;
  readonly sent: string[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.drop(1000);
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop(code: number) {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
  answer(id: number, value: unknown) {
    this.onmessage?.({ data: JSON.stringify({ id, outcome: { ok: true, value } }) });
  }
}

describe('WebSocket transport reconnects', () => {
  it('waits for the socket, reports a dropped call as unknown-outcome, and reconnects', async () => {
    const sockets: ScriptedSocket[] = [];
    const transport = createWsTransport({
      url: 'ws://127.0.0.1:1/bridge',
      token: 'ab'.repeat(32),
      createSocket: () => {
        const socket = new ScriptedSocket();
        sockets.push(socket);
        return socket;
      },
      reconnectDelay: { min: 0, max: 0 },
    });
    const first = transport.call('app.status', {});
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.sent).toEqual([]);
    sockets[0]!.open();
    expect(JSON.parse(sockets[0]!.sent[0]!)).toEqual({ id: 1, method: 'app.status', input: {} });
    sockets[0]!.answer(1, 'ok');
    expect(await first).toEqual({ ok: true, value: 'ok' });

    const dropped = transport.call('orders.place', { symbol: 'btcusdt' });
    sockets[0]!.drop(1006);
    expect(await dropped).toMatchObject({ ok: false, error: { kind: 'unknown-outcome' } });

    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(sockets).toHaveLength(2);
    const afterReconnect = transport.call('app.status', {});
    sockets[1]!.open();
    sockets[1]!.answer(3, 'again');
    expect(await afterReconnect).toEqual({ ok: true, value: 'again' });
    transport.close();
  });

  it('delivers events to subscribers and ignores malformed frames', () => {
    const socket = new ScriptedSocket();
    const transport = createWsTransport({
      url: 'ws://x/bridge',
      token: 'ab'.repeat(32),
      createSocket: () => socket,
    });
    const seen: unknown[] = [];
    const off = transport.subscribe((event, payload) => seen.push([event, payload]));
    socket.open();
    socket.onmessage!({ data: 'not json' });
    socket.onmessage!({ data: JSON.stringify({ event: 'notification', payload: { id: 1 } }) });
    off();
    socket.onmessage!({ data: JSON.stringify({ event: 'notification', payload: { id: 2 } }) });
    expect(seen).toEqual([['notification', { id: 1 }]]);
    transport.close();
  });
});
