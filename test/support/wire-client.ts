/**
 * A bridge client over browser mode's WebSocket, as the page's own: {id, method, input} ->
 * {id, outcome}, {event, payload}, with every message recorded. It imports nothing of the main
 * process, so the journeys' workers use it too.
 */
import WebSocket from 'ws';
import type { CallOutcome, EventName, EventPayloads } from '../../shared/contract';
import { bridgeProtocols } from '../../shared/bridge-client';

export interface RecordedEvent {
  event: EventName;
  payload: unknown;
}

/** What browser mode sends: the answer to a call, or an event. */
type WireAnswer = { id: number; outcome: CallOutcome<unknown> };
type WireEvent = { event: EventName; payload: unknown };

/** A bridge client over browser mode's WebSocket: {id, method, input} -> {id, outcome}, {event, payload}. */
export class WireClient {
  readonly raw: string[] = [];
  readonly events: RecordedEvent[] = [];
  private nextId = 1;
  private readonly pending = new Map<number, (outcome: CallOutcome<unknown>) => void>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString();
      this.raw.push(text);
      const message = JSON.parse(text) as WireAnswer | WireEvent;
      if ('event' in message) this.events.push({ event: message.event, payload: message.payload });
      else this.pending.get(message.id)?.(message.outcome);
    });
  }

  static async connect(port: number, token: string): Promise<WireClient> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge`, bridgeProtocols(token), {
      headers: { Host: `127.0.0.1:${port}`, Origin: `http://127.0.0.1:${port}` },
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`bridge refused the connection: HTTP ${res.statusCode}`)),
      );
    });
    return new WireClient(ws);
  }

  call(method: string, input: unknown = {}): Promise<CallOutcome<unknown>> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, (outcome) => {
        this.pending.delete(id);
        resolve(outcome);
      });
      this.ws.send(JSON.stringify({ id, method, input }));
    });
  }

  /** Calls and returns the value; a failed call fails the test with the bridge's error. */
  async ok<T = unknown>(method: string, input: unknown = {}): Promise<T> {
    const outcome = await this.call(method, input);
    if (!outcome.ok) {
      throw new Error(`${method} failed: ${outcome.error.kind}: ${outcome.error.message}`);
    }
    return outcome.value as T;
  }

  eventsOf<E extends EventName>(event: E): EventPayloads[E][] {
    return this.events.filter((e) => e.event === event).map((e) => e.payload as EventPayloads[E]);
  }

  close(): void {
    this.ws.close();
  }
}
