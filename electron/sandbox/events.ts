import { EventEmitter } from 'node:events';

/**
 * What the sandbox's engine, wallet and sub-account code announce after every change. The
 * WebSocket side turns these into public and private stream messages; nothing else listens.
 * Amounts are decimal strings, times integer ms, exactly as they go on the wire.
 */
export interface SandboxOrderSnapshot {
  accountId: number;
  id: number;
  clientOrderId: string;
  symbol: string;
  side: 'buy' | 'sell';
  type: 'limit' | 'stop_limit';
  status: 'idle' | 'wait' | 'done' | 'cancel';
  price: string;
  stopPrice?: string;
  origQty: string;
  executedQty: string;
  /** Quote amount filled so far, for the average price. */
  executedQuoteQty: string;
  isMaker: boolean;
  createdTime: number;
  updatedTime: number;
}

export interface SandboxTradeEvent {
  id: number;
  symbol: string;
  price: string;
  qty: string;
  quoteQty: string;
  time: number;
  isBuyerMaker: boolean;
  buyOrderId: number;
  sellOrderId: number;
  buyerAccountId: number;
  sellerAccountId: number;
  buyerClientOrderId: string;
  sellerClientOrderId: string;
  buyerFee: string;
  buyerFeeCurrency: string;
  sellerFee: string;
  sellerFeeCurrency: string;
}

export interface SandboxBalanceEvent {
  accountId: number;
  time: number;
  balances: { asset: string; free: string; locked: string }[];
}

export interface SandboxEventMap {
  /** An order was placed, triggered, (partly) filled or canceled. */
  order: [SandboxOrderSnapshot];
  /** One match between a buyer and a seller. */
  trade: [SandboxTradeEvent];
  /** The balances of some assets of one account changed (order, fill, transfer, deposit, withdrawal). */
  balance: [SandboxBalanceEvent];
  /** The book of a symbol changed (any level). */
  book: [{ symbol: string; time: number }];
}

export class SandboxEvents extends EventEmitter<SandboxEventMap> {
  constructor() {
    super();
    // The stream server and the simulation each add a listener per kind; more is a leak.
    this.setMaxListeners(50);
  }
}
