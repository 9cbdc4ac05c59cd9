/**
 * ExchangeClient: a typed method for every endpoint of the interface, grouped by area (one module
 * per area under areas/), plus the paging helpers that read whole histories.
 *
 * Every input is validated with its zod schema (inputs.ts) before anything is sent: bad input is
 * an 'invalid-input' error and nothing goes on the wire. Every answer is parsed with the schemas of
 * wire.ts. Writes whose outcome is unknown (5xx, timeout, connection lost, unreadable answer) are
 * reconciled against the exchange's records before the caller hears anything; writes are never
 * sent twice.
 */
import { z } from 'zod';
import { accountArea } from './areas/account';
import { generalArea, marketArea } from './areas/market';
import { streamsAuthArea } from './areas/streams-auth';
import { subAccountsArea } from './areas/sub-accounts';
import { tradingArea } from './areas/trading';
import { walletArea } from './areas/wallet';
import { invalidInput } from './errors';
import type { InputOf } from './inputs';
import { ExchangeLimiters, RateLimiter, type EndpointName } from './limits';
import { allMyTradesFrom, allOrdersFrom, withdrawHistory, type PagedReads } from './paging';
import { Requests } from './requests';
import { ENDPOINTS, RestTransport } from './rest';
import { insecureUrlReason } from './urls';
import { SystemClock, type Clock } from '../core/clock';
import type { Order, OwnTrade, WithdrawRecord } from './wire';

export type { NewOrder, WithdrawWindowReport } from './inputs';
export { WITHDRAW_WINDOW_MS, withdrawWindows } from './paging';

const optionsSchema = z.object({
  baseUrl: z.string({ error: 'must be an https: URL' }).superRefine((text, ctx) => {
    const reason = insecureUrlReason(text, 'rest');
    if (reason !== undefined) ctx.addIssue({ code: 'custom', message: reason });
  }),
  apiKey: z.string().min(1, 'must not be empty').optional(),
  secretKey: z.string().min(1, 'must not be empty').optional(),
  /** default 5000 */
  recvWindow: z.number().int().min(1).max(60_000, 'must be at most 60000').optional(),
  /** default 10000; a timeout on a write = unknown outcome (reconciled) */
  timeoutMs: z.number().int().positive().optional(),
  /** the local clock (tests skew it); default Date.now */
  now: z.custom<() => number>((value) => typeof value === 'function').optional(),
  /** what retries and waits run on; default the system clock */
  clock: z.custom<Clock>((value) => typeof value === 'object' && value !== null).optional(),
  /** default true (pacing on); benches turn it off */
  rateLimits: z.boolean().optional(),
  /**
   * The pacing shared with every other client of the same exchange (the app's, built once in
   * app.ts); without it the client paces through a limiter of its own.
   */
  limiters: z.instanceof(ExchangeLimiters).optional(),
});

/**
 * baseUrl must be https:, or plain http: to this machine only (127.0.0.0/8, ::1, localhost): keys
 * and signed requests never travel unencrypted.
 */
export type ExchangeClientOptions = z.input<typeof optionsSchema>;

export class ExchangeClient {
  private readonly rest: RestTransport;
  private readonly limiter: RateLimiter | undefined;
  private readonly apiKey: string | undefined;
  private readonly pagedReads: PagedReads;

  readonly general: ReturnType<typeof generalArea>;
  readonly market: ReturnType<typeof marketArea>;
  readonly trading: ReturnType<typeof tradingArea>;
  readonly account: ReturnType<typeof accountArea>;
  readonly wallet: ReturnType<typeof walletArea>;
  readonly subAccounts: ReturnType<typeof subAccountsArea>;
  readonly auth: ReturnType<typeof streamsAuthArea>;

  constructor(options: ExchangeClientOptions) {
    const checked = optionsSchema.safeParse(options);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw invalidInput(issue.path.map(String).join('.') || 'options', issue.message);
    }
    const recvWindow = options.recvWindow ?? 5000;
    this.apiKey = options.apiKey;
    this.limiter =
      options.rateLimits === false
        ? undefined
        : (options.limiters?.for(options.baseUrl) ?? new RateLimiter());
    const restOptions: ConstructorParameters<typeof RestTransport>[0] = {
      baseUrl: options.baseUrl,
      recvWindow,
      timeoutMs: options.timeoutMs ?? 10_000,
      now: options.now ?? Date.now,
    };
    if (options.apiKey !== undefined) restOptions.apiKey = options.apiKey;
    if (options.secretKey !== undefined) restOptions.secretKey = options.secretKey;
    if (this.limiter) restOptions.limiter = this.limiter;
    this.rest = new RestTransport(restOptions);

    const requests = new Requests(this.rest, recvWindow, options.clock ?? new SystemClock());
    this.general = generalArea(requests);
    this.market = marketArea(requests);
    this.trading = tradingArea(requests);
    this.account = accountArea(requests);
    this.wallet = walletArea(requests);
    this.subAccounts = subAccountsArea(requests);
    this.auth = streamsAuthArea(requests);
    this.pagedReads = {
      allOrders: this.trading.allOrders,
      myTrades: this.trading.myTrades,
      withdraws: this.wallet.withdraws,
    };
  }

  /** Server clock offset in ms (server - local), measured from /time. */
  get clockOffsetMs(): number {
    return this.rest.offsetMs;
  }

  /** How long (ms) a call to this endpoint would wait in the pacing queue right now. */
  queueWaitMs(endpoint: EndpointName): number {
    if (!this.limiter) return 0;
    const key = ENDPOINTS[endpoint].security === 'NONE' ? 'ip' : (this.apiKey ?? 'ip');
    return this.limiter.queueWaitMs(endpoint, key);
  }

  async close(): Promise<void> {
    await this.rest.close();
  }

  /** Every order of a symbol from fromOrderId on (ascending ids); onPage gets the running count. */
  allOrdersFrom(p: InputOf<'allOrdersFrom'>): Promise<Order[]> {
    return allOrdersFrom(this.pagedReads, p);
  }

  /** Every own trade from fromId on (ascending ids); onPage gets the running count. */
  allMyTradesFrom(p: InputOf<'allMyTradesFrom'>): Promise<OwnTrade[]> {
    return allMyTradesFrom(this.pagedReads, p);
  }

  /** The withdraw history over [startTime, endTime], any span, in windows under 90 days. */
  withdrawHistory(p: InputOf<'withdrawHistory'>): Promise<WithdrawRecord[]> {
    return withdrawHistory(this.pagedReads, p);
  }
}
