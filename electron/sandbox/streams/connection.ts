/**
 * One WebSocket client of the sandbox's streams, and the frames sent to it. A public message is
 * serialized, encoded and framed once (textFrame) and the same bytes go to every subscriber.
 */
import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';
import type { TimerHandle } from '../../core/clock';
import type { PrivateStream } from '../../../shared/market';

/** A client that lets this much pile up unread is dropped rather than buffered without bound. */
const SLOW_CONSUMER_BYTES = 16 * 1024 * 1024;

export class StreamConnection {
  readonly publicStreams = new Set<string>();
  /** Private stream -> the account whose auth_key subscribed it on this connection. */
  readonly privateStreams = new Map<PrivateStream, number>();
  lifeTimer: TimerHandle | undefined;
  /** Clock times of the incoming messages of the last second (for the 5-per-second rule). */
  recentMessages: number[] = [];
  disposed = false;

  constructor(
    readonly ws: WebSocket,
    /** The upgraded TCP socket under `ws`, for frames built once for many connections. */
    private readonly socket: Duplex,
  ) {}

  streamCount(): number {
    return this.publicStreams.size + this.privateStreams.size;
  }

  private writable(): boolean {
    if (this.disposed || this.ws.readyState !== WebSocket.OPEN) return false;
    if (this.ws.bufferedAmount > SLOW_CONSUMER_BYTES) {
      this.ws.terminate();
      return false;
    }
    return true;
  }

  send(text: string): void {
    if (this.writable()) this.ws.send(text);
  }

  /**
   * A complete text frame built once for every subscriber (see textFrame), written straight to
   * the socket. Safe beside ws's own sends: without per-message deflate, ws writes each of its
   * frames synchronously and whole, so frames never interleave; and nothing is written once ws
   * has started closing (readyState is no longer OPEN).
   */
  sendFrame(frame: Buffer): void {
    if (this.writable()) this.socket.write(frame);
  }
}

/** A stream message: the payload under `data`, the stream's name under `stream`. */
export function dataMessage(stream: string, data: unknown): string {
  return JSON.stringify({ data, stream });
}

/**
 * An unmasked, unfragmented RFC 6455 text frame (what a server sends) around `text`: the
 * serialization, UTF-8 encoding and framing of a message happen once, whatever the number of
 * subscribers.
 */
export function textFrame(text: string): Buffer {
  const payloadLength = Buffer.byteLength(text);
  const headerLength = payloadLength < 126 ? 2 : payloadLength <= 0xffff ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + payloadLength);
  frame[0] = 0x81; // FIN + opcode 1 (text)
  if (headerLength === 2) {
    frame[1] = payloadLength;
  } else if (headerLength === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(payloadLength, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(payloadLength), 2);
  }
  frame.write(text, headerLength, 'utf8');
  return frame;
}
