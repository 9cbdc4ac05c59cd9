/**
 * Properties over random histories (fast-check): deposits (inferred credits), trades on four
 * markets (one cross-quote) with fees in every kind of asset, transfers between two accounts and
 * withdrawals, always within what is held. Reported in USDT.
 */
import { formatDecimal } from '../../electron/core/decimal';
import { Decimal, divide, type DecimalValue } from '../../shared/exact-decimal';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  buildLedger,
  holdingsAt,
  Ledger,
  ledgerFigures,
  pnlForRange,
  reconcile,
  type BalanceSnapshot,
  ZERO,
  type Amount,
  type CostMethod,
  type LedgerEntry,
  type PriceAt,
} from '../../electron/ledger';

const ACCOUNTS = ['main', 'sub@x'] as const;
const COINS = ['BTC', 'ETH', 'BNB'] as const;
const MARKETS = [
  { symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT' },
  { symbol: 'ETHUSDT', base: 'ETH', quote: 'USDT' },
  { symbol: 'BNBUSDT', base: 'BNB', quote: 'USDT' },
  { symbol: 'ETHBTC', base: 'ETH', quote: 'BTC' },
] as const;

interface Op {
  kind: 'deposit' | 'trade' | 'transfer' | 'withdraw';
  account: number;
  coin: number;
  market: number;
  buy: boolean;
  /** Per mille of what is available. */
  share: number;
  /** 0 none, 1 in the received asset, 2 in the sent asset, 3 in BNB. */
  fee: number;
  /** Price index (USDT markets) or ETHBTC price in 1/10,000. */
  price: number;
}

const op = (kinds: Op['kind'][]) =>
  fc.record({
    kind: fc.constantFrom(...kinds),
    account: fc.integer({ min: 0, max: 1 }),
    coin: fc.integer({ min: 0, max: 3 }),
    market: fc.integer({ min: 0, max: 3 }),
    buy: fc.boolean(),
    share: fc.integer({ min: 1, max: 1000 }),
    fee: fc.integer({ min: 0, max: 3 }),
    price: fc.integer({ min: 1, max: 900 }),
  });

const D = (value: DecimalValue): Amount => new Decimal(value);
const down8 = (value: Amount): Amount => value.toDecimalPlaces(8, Decimal.ROUND_DOWN);

/** USDT prices by time: deterministic, moving, exact. */
const priceAt: PriceAt = (asset, quote, time) => {
  if (quote !== 'USDT') return null;
  const base = { BTC: 60000, ETH: 3000, BNB: 400 }[asset];
  if (base === undefined) return null;
  return D(base)
    .times(
      D(1).plus(
        D((time * 37) % 101)
          .minus(50)
          .times('0.005'),
      ),
    )
    .toFixed();
};

/** Turns random intents into a history that never spends more than is held. */
function history(ops: Op[]): LedgerEntry[] {
  const held = new Map<string, Amount>();
  const get = (account: string, asset: string) => held.get(`${account}/${asset}`) ?? ZERO;
  const move = (account: string, asset: string, delta: Amount) =>
    held.set(`${account}/${asset}`, get(account, asset).plus(delta));
  const entries: LedgerEntry[] = [];
  ops.forEach((o, index) => {
    const time = index + 1;
    const account = ACCOUNTS[o.account]!;
    const share = D(o.share).times('0.001');
    switch (o.kind) {
      case 'deposit': {
        const asset = o.coin === 3 ? 'USDT' : COINS[o.coin]!;
        const amount = D(o.share).times(asset === 'USDT' ? 100 : '0.01');
        move(account, asset, amount);
        entries.push({
          kind: 'inferred',
          id: `d${index}`,
          account,
          asset,
          amount: formatDecimal(amount),
          from: time - 1,
          to: time,
          time,
        });
        return;
      }
      case 'trade': {
        const market = MARKETS[o.market]!;
        const price =
          market.quote === 'USDT'
            ? D(priceAt(market.base, 'USDT', time)!)
            : D(o.price).times('0.0001');
        const sent = o.buy ? market.quote : market.base;
        const received = o.buy ? market.base : market.quote;
        const available = get(account, sent);
        const qty = o.buy
          ? down8(divide(available.times(share), price))
          : down8(available.times(share));
        const quoteQty = qty.times(price);
        if (qty.isZero() || quoteQty.isZero()) return;
        const receivedQty = o.buy ? qty : quoteQty;
        const sentQty = o.buy ? quoteQty : qty;
        let commission = down8(receivedQty.times('0.001'));
        let commissionAsset = received;
        if (o.fee === 2) commissionAsset = sent;
        if (o.fee === 3) {
          commissionAsset = 'BNB';
          commission = down8(get(account, 'BNB').times('0.01'));
        }
        const spentWithFee = commissionAsset === sent ? sentQty.plus(commission) : sentQty;
        if (
          o.fee === 0 ||
          commission.isZero() ||
          spentWithFee.gt(get(account, sent)) ||
          (commissionAsset === 'BNB' && commission.gt(get(account, 'BNB')))
        ) {
          commission = ZERO;
        }
        move(account, sent, sentQty.negated());
        move(account, received, receivedQty);
        if (!commission.isZero()) move(account, commissionAsset, commission.negated());
        entries.push({
          kind: 'trade',
          id: String(index),
          account,
          symbol: market.symbol,
          base: market.base,
          quote: market.quote,
          side: o.buy ? 'BUY' : 'SELL',
          qty: formatDecimal(qty),
          price: formatDecimal(price),
          quoteQty: formatDecimal(quoteQty),
          commission: formatDecimal(commission),
          commissionAsset,
          time,
        });
        return;
      }
      case 'transfer': {
        const asset = o.coin === 3 ? 'USDT' : COINS[o.coin]!;
        const to = ACCOUNTS[1 - o.account]!;
        const amount = down8(get(account, asset).times(share));
        if (amount.isZero()) return;
        move(account, asset, amount.negated());
        move(to, asset, amount);
        entries.push({
          kind: 'transfer',
          id: `t${index}`,
          fromAccount: account,
          toAccount: to,
          asset,
          amount: formatDecimal(amount),
          time,
        });
        return;
      }
      case 'withdraw': {
        const asset = o.coin === 3 ? 'USDT' : COINS[o.coin]!;
        const total = down8(get(account, asset).times(share));
        const fee = down8(total.times('0.01'));
        const amount = total.minus(fee);
        if (amount.isZero()) return;
        move(account, asset, total.negated());
        entries.push({
          kind: 'withdrawal',
          id: `w${index}`,
          account,
          asset,
          amount: formatDecimal(amount),
          fee: formatDecimal(fee),
          status: o.share % 5 === 0 ? 'failed' : 'success',
          time,
        });
        if (o.share % 5 === 0) move(account, asset, total);
        return;
      }
    }
  });
  return entries;
}

const ALL = fc.array(op(['deposit', 'trade', 'transfer', 'withdraw']), {
  minLength: 1,
  maxLength: 60,
});
const METHODS: CostMethod[] = ['fifo', 'lifo', 'hifo', 'average'];
const METHOD = fc.constantFrom<CostMethod>(...METHODS);

describe('ledger properties', () => {
  it('quantities in lots equal holdings replayed from the entries, per account and asset', () => {
    fc.assert(
      fc.property(ALL, METHOD, (ops, method) => {
        const entries = history(ops);
        const ledger = buildLedger(entries, { method, reportingAsset: 'USDT', priceAt });
        expect(ledger.shortfalls).toEqual([]);
        const replayed = holdingsAt(entries);
        for (const position of ledger.positions.values()) {
          const replay = replayed.byAccount.get(position.account)?.get(position.asset) ?? ZERO;
          expect(formatDecimal(position.quantity)).toBe(formatDecimal(replay));
          if (position.cash) continue;
          let inLots = ZERO;
          let costInLots = ZERO;
          for (const lot of position.lots()) {
            inLots = inLots.plus(lot.quantity);
            costInLots = costInLots.plus(lot.cost);
          }
          expect(formatDecimal(inLots)).toBe(formatDecimal(replay));
          expect(formatDecimal(costInLots)).toBe(formatDecimal(position.cost));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('realized + unrealized − withdrawal fee cost = value − net flows at cost, exactly', () => {
    fc.assert(
      fc.property(ALL, METHOD, (ops, method) => {
        const entries = history(ops);
        const ledger = buildLedger(entries, { method, reportingAsset: 'USDT', priceAt });
        const at = ops.length + 7;
        for (const account of [undefined, ...ACCOUNTS]) {
          const { total } = ledgerFigures(ledger, { at, priceAt, ...(account ? { account } : {}) });
          const pnl = total.realizedPnl.plus(total.unrealizedPnl).minus(total.withdrawalFeeCost);
          // Starting from nothing, the value change is the value now.
          if (account === undefined) {
            expect(formatDecimal(pnl)).toBe(formatDecimal(total.value.minus(total.netFlowsAtCost)));
          }
          expect(formatDecimal(total.value)).toBe(
            formatDecimal(total.costBasis.plus(total.unrealizedPnl)),
          );
        }
      }),
      { numRuns: 150 },
    );
  });

  /** BNB bought with a fee in BNB larger than the BNB bought (found by a CI run). */
  const ONE_UNIT: Op = {
    kind: 'deposit',
    account: 0,
    coin: 0,
    market: 0,
    buy: false,
    share: 1,
    fee: 0,
    price: 1,
  };
  const FEE_ABOVE_PURCHASE: Op[] = [
    { ...ONE_UNIT, coin: 2 },
    { ...ONE_UNIT, kind: 'trade', market: 2 },
    { ...ONE_UNIT, kind: 'trade', market: 2, buy: true, fee: 3 },
  ];

  it('every method realizes the same total once everything is sold', () => {
    const TRADES_AND_TRANSFERS = fc.array(op(['deposit', 'trade', 'transfer']), {
      minLength: 1,
      maxLength: 60,
    });
    fc.assert(
      fc.property(TRADES_AND_TRANSFERS, (ops) => {
        const entries = history(ops);
        const time = ops.length + 1;
        // Sell every coin left, in every account, for USDT at the time's price, without a fee.
        for (const [account, assets] of holdingsAt(entries).byAccount) {
          for (const [asset, quantity] of assets) {
            if (asset === 'USDT' || quantity.isZero()) continue;
            const price = D(priceAt(asset, 'USDT', time)!);
            entries.push({
              kind: 'trade',
              id: `close-${account}-${asset}`,
              account,
              symbol: `${asset}USDT`,
              base: asset,
              quote: 'USDT',
              side: 'SELL',
              qty: formatDecimal(quantity),
              price: formatDecimal(price),
              quoteQty: formatDecimal(quantity.times(price)),
              commission: '0',
              commissionAsset: 'USDT',
              time,
            });
          }
        }
        const realized = (method: CostMethod) =>
          ledgerFigures(buildLedger(entries, { method, reportingAsset: 'USDT', priceAt }), {
            at: time,
            priceAt,
          }).total.realizedPnl;
        const fifo = formatDecimal(realized('fifo'));
        for (const method of METHODS) expect(formatDecimal(realized(method)), method).toBe(fifo);
      }),
      {
        numRuns: 150,
        // The lot of negative quantity it once left was taken from by LIFO's closing sale.
        examples: [[FEE_ABOVE_PURCHASE]],
      },
    );
  });

  it('under every method, the basis held (cash at its quantity) less realized P&L is the cost of what came in', () => {
    // Deposits, trades and transfers: nothing leaves, so every unit of basis that came in is
    // either still held or was realized against proceeds that are held.
    const IN_AND_TRADED = fc.array(op(['deposit', 'trade', 'transfer']), {
      minLength: 1,
      maxLength: 60,
    });
    fc.assert(
      fc.property(IN_AND_TRADED, (ops) => {
        const entries = history(ops);
        // The deposits' cost: their value at the time (USDT at its quantity), computed here.
        let costIn = ZERO;
        for (const entry of entries) {
          if (entry.kind !== 'inferred') continue;
          const price = entry.asset === 'USDT' ? '1' : priceAt(entry.asset, 'USDT', entry.time)!;
          costIn = costIn.plus(D(entry.amount).times(D(price)));
        }
        const at = ops.length + 1;
        const perAsset = new Map<string, string>();
        for (const method of METHODS) {
          const ledger = buildLedger(entries, { method, reportingAsset: 'USDT', priceAt });
          const { total, assets } = ledgerFigures(ledger, { at, priceAt });
          expect(formatDecimal(total.costBasis.minus(total.realizedPnl)), method).toBe(
            formatDecimal(costIn),
          );
          // Per coin: realized − basis held is proceeds − cost of what was acquired, which the
          // method does not change (it only chooses which units left).
          for (const row of assets) {
            const difference = formatDecimal(row.realizedPnl.minus(row.costBasis));
            const first = perAsset.get(row.asset);
            if (first === undefined) perAsset.set(row.asset, difference);
            else expect(difference, `${method} ${row.asset}`).toBe(first);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('on a single sale, HIFO realizes no more than FIFO, LIFO or average cost', () => {
    const BUY = fc.record({
      // Hundredths of a coin and whole USDT per coin.
      qty: fc.integer({ min: 1, max: 500 }),
      price: fc.integer({ min: 1, max: 5000 }),
      fee: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(BUY, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 9000 }),
        (buys, perMille, salePrice) => {
          const entries: LedgerEntry[] = [];
          let held = ZERO;
          buys.forEach((buy, index) => {
            const qty = D(buy.qty).times('0.01');
            const commission = buy.fee ? qty.times('0.001') : ZERO;
            held = held.plus(qty).minus(commission);
            entries.push({
              kind: 'trade',
              id: `b${index}`,
              account: 'main',
              symbol: 'ETHUSDT',
              base: 'ETH',
              quote: 'USDT',
              side: 'BUY',
              qty: formatDecimal(qty),
              price: String(buy.price),
              quoteQty: formatDecimal(qty.times(buy.price)),
              commission: formatDecimal(commission),
              commissionAsset: 'ETH',
              time: index + 1,
            });
          });
          const sold = down8(held.times(perMille).times('0.001'));
          if (sold.isZero()) return;
          entries.push({
            kind: 'trade',
            id: 'sale',
            account: 'main',
            symbol: 'ETHUSDT',
            base: 'ETH',
            quote: 'USDT',
            side: 'SELL',
            qty: formatDecimal(sold),
            price: String(salePrice),
            quoteQty: formatDecimal(sold.times(salePrice)),
            commission: '0',
            commissionAsset: 'USDT',
            time: buys.length + 1,
          });
          // In USDT, the market's quote: no price needed.
          const gain = (method: CostMethod) =>
            buildLedger(entries, {
              method,
              reportingAsset: 'USDT',
              priceAt: () => null,
            }).disposals.reduce((sum, d) => sum.plus(d.gain), ZERO);
          const hifo = gain('hifo');
          for (const other of ['fifo', 'lifo', 'average'] as const) {
            expect(hifo.lte(gain(other)), `HIFO ${formatDecimal(hifo)} vs ${other}`).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the figures of two adjacent intervals add up to those of their union, exactly', () => {
    fc.assert(
      fc.property(
        ALL,
        METHOD,
        fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
        fc.constantFrom(undefined, ...ACCOUNTS),
        (ops, method, picks, account) => {
          const entries = history(ops);
          // Three times from before the first entry to after the last, boundaries on entries too.
          const [a, b, c] = picks.map((pick) => pick % (ops.length + 2)).sort((x, y) => x - y) as [
            number,
            number,
            number,
          ];
          const options = { method, reportingAsset: 'USDT', priceAt };
          const range = (from: number, to: number) =>
            pnlForRange(entries, options, { from, to, ...(account ? { account } : {}) });
          const first = range(a, b);
          const second = range(b, c);
          const union = range(a, c);
          for (const field of ['realizedPnl', 'feesPaid', 'unrealizedChange', 'pnl'] as const) {
            expect(formatDecimal(first[field].plus(second[field])), field).toBe(
              formatDecimal(union[field]),
            );
          }
          expect(formatDecimal(union.pnl)).toBe(
            formatDecimal(union.realizedPnl.plus(union.unrealizedChange)),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reconciling against snapshots of the replay restores every snapshot, never below zero', () => {
    fc.assert(
      fc.property(ALL, fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), (ops, picks) => {
        const entries = history(ops);
        const times = [...new Set(picks.map((pick) => pick % (ops.length + 1)))];
        const snapshots: BalanceSnapshot[] = times.flatMap((time) =>
          ACCOUNTS.map((account) => {
            const held =
              holdingsAt(entries, time).byAccount.get(account) ?? new Map<string, Amount>();
            const balances = Object.fromEntries(
              [...held].filter(([, v]) => !v.isZero()).map(([k, v]) => [k, formatDecimal(v)]),
            );
            return { account, time, complete: true, balances };
          }),
        );
        // Deposits are what the exchange does not report: forget them and infer them again.
        const known = entries.filter((entry) => entry.kind !== 'inferred');
        const all = [...known, ...reconcile(known, snapshots, { openedAt: 0 })];
        for (const snapshot of snapshots) {
          const held =
            holdingsAt(all, snapshot.time).byAccount.get(snapshot.account) ??
            new Map<string, Amount>();
          for (const [asset, balance] of held) {
            expect(formatDecimal(balance)).toBe(snapshot.balances[asset] ?? '0');
          }
        }
        for (let time = 0; time <= ops.length; time++) {
          for (const assets of holdingsAt(all, time).byAccount.values()) {
            for (const balance of assets.values()) expect(balance.isNegative()).toBe(false);
          }
        }
        // And the ledger builds on it without a shortfall.
        expect(
          buildLedger(all, { method: 'fifo', reportingAsset: 'USDT', priceAt }).shortfalls,
        ).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  /**
   * A trade against the reporting asset with its fee, if any, in what it receives is applied from
   * its amounts' parts (Ledger's applyTrade and applyCashBuy), every other trade by applyAnyTrade.
   * Here every trade also goes through applyAnyTrade, for a ledger to compare with: positions,
   * lots, figures (each account's, from the fee sums kept without records) and every disposal and
   * fee recorded come out the same, digit for digit.
   */
  it('a trade’s fast paths give exactly what the general path gives', () => {
    type General = {
      applyAnyTrade(
        trade: LedgerEntry & { kind: 'trade' },
        time: number,
        account: string,
        base: string,
        quote: string,
        buy: boolean,
      ): void;
    };
    const prototype = Ledger.prototype as unknown as General & {
      applyTrade(trade: LedgerEntry & { kind: 'trade' }, time: number): void;
    };
    const state = (ledger: Ledger, at: number) => {
      const positions = [...ledger.positions.values()].map((position) => ({
        at: `${position.account}/${position.asset}`,
        quantity: formatDecimal(position.quantity),
        cost: formatDecimal(position.cost),
        lots: position.cash
          ? []
          : position.lots().map((lot) => [formatDecimal(lot.quantity), formatDecimal(lot.cost)]),
      }));
      const figures = [undefined, ...ACCOUNTS].map((account) =>
        JSON.stringify(ledgerFigures(ledger, { at, priceAt, ...(account ? { account } : {}) })),
      );
      // Read after the figures: the records are made by a replay of their own.
      const disposals = ledger.disposals.map((d) =>
        [d.entry.id, d.account, d.asset, d.quantity, d.proceeds, d.cost, d.reason].map(String),
      );
      const fees = ledger.fees.map((f) =>
        [f.entry.id, f.account, f.asset, f.amount, f.value, f.attributedTo].map(String),
      );
      return { positions, figures, disposals, fees };
    };
    fc.assert(
      fc.property(ALL, METHOD, (ops, method) => {
        const entries = history(ops);
        const at = ops.length + 7;
        const options = { method, reportingAsset: 'USDT', priceAt };
        const fast = state(buildLedger(entries, options), at);
        const general = vi.spyOn(prototype, 'applyTrade').mockImplementation(function (
          this: General,
          trade,
          time,
        ) {
          this.applyAnyTrade(
            trade,
            time,
            trade.account,
            trade.base,
            trade.quote,
            trade.side === 'BUY',
          );
        });
        try {
          expect(fast).toEqual(state(buildLedger(entries, options), at));
        } finally {
          general.mockRestore();
        }
      }),
      { numRuns: 200 },
    );
  });
});
