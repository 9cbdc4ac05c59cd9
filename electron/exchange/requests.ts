/**
 * How the client's areas call the exchange: one method per HTTP method, so every call site says
 * whether it reads (get) or writes (post, delete), and the endpoint table fixes which is which (a
 * get of a POST endpoint does not compile). Writes whose answer is lost are looked up in the
 * exchange's records (reconcile) before the caller hears anything; a write is never sent twice.
 */
import type { z } from 'zod';
import { ExchangeError } from './errors';
import {
  outcomeUnknown,
  type EndpointWith,
  type Params,
  type RestTransport,
  type SentRequest,
} from './rest';
import { readKey, reusedFor, SingleFlight } from './single-flight';
import { WireError } from './wire';
import { sleep, type Clock } from '../core/clock';

/** Delay between reconciliation reads; the limiter paces them further where needed. */
const RECONCILE_POLL_MS = 250;
/** Slack for clock offset error when comparing our send time with the exchange's record times. */
export const RECONCILE_TIME_SLACK_MS = 2000;

export class Requests {
  /** Identical reads in flight share one request (see single-flight.ts). */
  readonly reads: SingleFlight;

  constructor(
    private readonly rest: RestTransport,
    /** The recvWindow every signed request carries (ms). */
    readonly recvWindow: number,
    /** What the reconciliation waits on between its reads. */
    private readonly clock: Clock,
  ) {
    this.reads = new SingleFlight(() => clock.now());
  }

  /** `takeKept`: an answer of this read kept from the last few seconds will do (single-flight.ts). */
  get<S extends z.ZodType>(
    endpoint: EndpointWith<'GET'>,
    params: Params,
    schema: S,
    options: { takeKept?: boolean } = {},
  ): Promise<z.output<S>> {
    return this.reads.run(
      readKey(endpoint, params),
      () => this.rest.call(endpoint, params, schema),
      {
        keepMs: reusedFor[endpoint],
        takeKept: options.takeKept,
      },
    );
  }

  /** `sent.timestamp` receives the signed timestamp, for reconciling an unknown outcome. */
  post<S extends z.ZodType>(
    endpoint: EndpointWith<'POST'>,
    params: Params,
    schema: S,
    sent?: SentRequest,
  ): Promise<z.output<S>> {
    this.reads.forget();
    return this.rest.call(endpoint, params, schema, sent);
  }

  /** `sent.timestamp` receives the signed timestamp, for reconciling an unknown outcome. */
  delete<S extends z.ZodType>(
    endpoint: EndpointWith<'DELETE'>,
    params: Params,
    schema: S,
    sent?: SentRequest,
  ): Promise<z.output<S>> {
    this.reads.forget();
    return this.rest.call(endpoint, params, schema, sent);
  }

  /** The exchange's clock as we estimate it. */
  serverNow(): number {
    return this.rest.serverNow();
  }

  /**
   * Looks for the effect of a write whose answer was lost. `lookup` returns the effect or
   * undefined. Not seeing it is only conclusive once the request's timestamp has left recvWindow
   * at the exchange (the exchange refuses to process it after that), so lookups repeat until
   * then. If the lookups themselves keep failing, the outcome stays unknown.
   */
  async reconcile<T>(
    original: unknown,
    sent: SentRequest,
    what: string,
    lookup: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const stamp = sent.timestamp ?? this.rest.serverNow();
    const conclusiveAt = stamp + this.recvWindow + 1000 + this.rest.offsetUncertaintyMs;
    let lastFailure: unknown = undefined;
    for (;;) {
      try {
        const found = await lookup();
        if (found !== undefined) return found;
        lastFailure = undefined;
      } catch (error) {
        lastFailure = error;
      }
      if (this.rest.serverNow() > conclusiveAt) break;
      await sleep(this.clock, RECONCILE_POLL_MS);
    }
    if (lastFailure !== undefined) {
      throw new ExchangeError(
        'unknown-outcome',
        `The ${what} may or may not have happened: the exchange did not confirm (${describe(original)}) and checking failed (${describe(lastFailure)})`,
        { cause: original },
      );
    }
    return undefined;
  }
}

/**
 * Whether a failed write may have taken effect: an unknown outcome at the transport (5xx,
 * timeout, connection lost after it opened), or an answer that did not fit its schema.
 */
export function mayHaveHappened(error: unknown): boolean {
  return outcomeUnknown(error) || error instanceof WireError;
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The write is known not to have happened: keep the original failure's kind and details. */
export function notApplied(original: unknown, message: string): ExchangeError {
  if (original instanceof ExchangeError) {
    const init: ConstructorParameters<typeof ExchangeError>[2] = { cause: original };
    if (original.status !== undefined) init.status = original.status;
    if (original.code !== undefined) init.code = original.code;
    if (original.exchangeMessage !== undefined) init.exchangeMessage = original.exchangeMessage;
    return new ExchangeError(original.kind, `${message} (${original.message})`, init);
  }
  return new ExchangeError('server', `${message} (${describe(original)})`, { cause: original });
}
