import { WITHDRAW_STATUS_CODES as WITHDRAW_STATUS } from '../../shared/market';
import type { Clock } from '../core/clock';
import { addressFor, explorerUrl, seededSource, txIdFor } from './addresses';
import { lowerBound } from './engine';
import { errors } from './errors';
import { formatFixed, parseFixed } from './fixed';
import type { Ledger } from './ledger';

export interface NetworkInfo {
  coin: string;
  depositEnable: boolean;
  isDefault: boolean;
  confirmations: number;
  name: string;
  network: string;
  withdrawEnable: boolean;
  withdrawFee: string;
  withdrawIntegerMultiple?: string;
  withdrawMax: string;
  withdrawMin: string;
  memoRequired: boolean;
}

export interface CoinInfo {
  coin: string;
  rapidListed: boolean;
  name: string;
  partnerTransferEnable: boolean;
  partnerTransferFee: string;
  minPartnerTransfer: string;
  networkList: NetworkInfo[];
}

export const NINETY_DAYS_MS = 90 * 86_400_000;

interface WithdrawEntry {
  id: string;
  accountId: number;
  coin: string;
  network: string | undefined;
  address: string | undefined;
  amount: bigint;
  transactionFee: bigint;
  createdAt: number;
  lastUpdated: number;
  status: number;
  withdrawOrderId: string | undefined;
  partnerTransfer: boolean;
  txId: string | undefined;
  failureInfo: string;
  /** True when the amount and fee were really debited (so a failure refunds them). */
  debited: boolean;
}

export interface WithdrawRecord {
  partnerTransfer: boolean;
  address?: string;
  amount: string;
  createdAt: string;
  lastUpdated: string;
  coin: string;
  id: string;
  withdrawOrderId?: string;
  network?: string;
  status: number;
  transactionFee: string;
  failureInfo: string;
  txId?: string;
}

function network(
  coin: string,
  spec: Partial<NetworkInfo> & { network: string; name: string },
): NetworkInfo {
  return {
    coin,
    depositEnable: true,
    isDefault: false,
    confirmations: 12,
    withdrawEnable: true,
    withdrawFee: '0',
    withdrawMax: '10000000',
    withdrawMin: '0',
    memoRequired: false,
    ...spec,
  };
}

/** The coins of every sandbox world: several networks, memos, disabled deposits or withdrawals. */
export function defaultCoins(): CoinInfo[] {
  return [
    {
      coin: 'btc',
      rapidListed: false,
      name: 'Bitcoin',
      partnerTransferEnable: true,
      partnerTransferFee: '0.00001',
      minPartnerTransfer: '0.0001',
      networkList: [
        network('btc', {
          network: 'BTC',
          name: 'Bitcoin',
          isDefault: true,
          confirmations: 2,
          withdrawFee: '0.0002',
          withdrawMin: '0.001',
          withdrawMax: '100',
        }),
        network('btc', {
          network: 'BSC',
          name: 'BNB Smart Chain (BEP20)',
          confirmations: 15,
          withdrawFee: '0.00001',
          withdrawMin: '0.0001',
          withdrawMax: '50',
          depositEnable: false,
        }),
      ],
    },
    {
      coin: 'eth',
      rapidListed: false,
      name: 'Ethereum',
      partnerTransferEnable: true,
      partnerTransferFee: '0.0001',
      minPartnerTransfer: '0.001',
      networkList: [
        network('eth', {
          network: 'ETH',
          name: 'Ethereum (ERC20)',
          isDefault: true,
          confirmations: 12,
          withdrawFee: '0.002',
          withdrawMin: '0.01',
          withdrawMax: '1000',
        }),
        network('eth', {
          network: 'ARBITRUM',
          name: 'Arbitrum One',
          confirmations: 20,
          withdrawFee: '0.0002',
          withdrawMin: '0.002',
          withdrawMax: '1000',
        }),
        network('eth', {
          network: 'BSC',
          name: 'BNB Smart Chain (BEP20)',
          confirmations: 15,
          withdrawFee: '0.0001',
          withdrawMin: '0.001',
          withdrawMax: '500',
          withdrawEnable: false,
        }),
      ],
    },
    {
      coin: 'usdt',
      rapidListed: false,
      name: 'Tether USD',
      partnerTransferEnable: true,
      partnerTransferFee: '0.1',
      minPartnerTransfer: '1',
      networkList: [
        network('usdt', {
          network: 'ETH',
          name: 'Ethereum (ERC20)',
          confirmations: 12,
          withdrawFee: '4',
          withdrawMin: '10',
          withdrawMax: '1000000',
        }),
        network('usdt', {
          network: 'TRX',
          name: 'Tron (TRC20)',
          isDefault: true,
          confirmations: 20,
          withdrawFee: '1',
          withdrawMin: '5',
          withdrawMax: '1000000',
          withdrawIntegerMultiple: '0.000001',
        }),
        network('usdt', {
          network: 'BSC',
          name: 'BNB Smart Chain (BEP20)',
          confirmations: 15,
          withdrawFee: '0.3',
          withdrawMin: '5',
          withdrawMax: '1000000',
        }),
        network('usdt', {
          network: 'SOL',
          name: 'Solana',
          confirmations: 1,
          withdrawFee: '1',
          withdrawMin: '5',
          withdrawMax: '500000',
          depositEnable: false,
          withdrawEnable: false,
        }),
      ],
    },
    {
      coin: 'sol',
      rapidListed: true,
      name: 'Solana',
      partnerTransferEnable: false,
      partnerTransferFee: '0',
      minPartnerTransfer: '0',
      networkList: [
        network('sol', {
          network: 'SOL',
          name: 'Solana',
          isDefault: true,
          confirmations: 1,
          withdrawFee: '0.01',
          withdrawMin: '0.1',
          withdrawMax: '50000',
        }),
        network('sol', {
          network: 'BSC',
          name: 'BNB Smart Chain (BEP20)',
          confirmations: 15,
          withdrawFee: '0.005',
          withdrawMin: '0.05',
          withdrawMax: '10000',
        }),
      ],
    },
    {
      coin: 'xrp',
      rapidListed: false,
      name: 'XRP',
      partnerTransferEnable: true,
      partnerTransferFee: '0.1',
      minPartnerTransfer: '10',
      networkList: [
        network('xrp', {
          network: 'XRP',
          name: 'XRP Ledger',
          isDefault: true,
          confirmations: 1,
          withdrawFee: '0.25',
          withdrawMin: '20',
          withdrawMax: '1000000',
          memoRequired: true,
          withdrawIntegerMultiple: '0.000001',
        }),
        network('xrp', {
          network: 'BSC',
          name: 'BNB Smart Chain (BEP20)',
          confirmations: 15,
          withdrawFee: '0.2',
          withdrawMin: '10',
          withdrawMax: '100000',
        }),
      ],
    },
  ];
}

/** 'YYYY-MM-DD HH:MM:SS' in UTC. */
export function formatUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** Coins, deposit addresses and withdrawals (on-chain and partner transfers). */
export class Wallet {
  readonly coins: CoinInfo[];
  /** Per account, withdraw records sorted by createdAt (then id) ascending. */
  private readonly withdrawals = new Map<number, WithdrawEntry[]>();
  private readonly byId = new Map<string, WithdrawEntry>();
  private nextWithdrawId = 1;

  constructor(
    private readonly clock: Clock,
    private readonly ledger: Ledger,
    private readonly seed: number,
    coins: CoinInfo[] = defaultCoins(),
  ) {
    this.coins = coins;
  }

  private network(
    coinName: string | undefined,
    networkName: string | undefined,
  ): { coin: CoinInfo; network: NetworkInfo } {
    if (!coinName) throw errors.missing('coin');
    if (!networkName) throw errors.missing('network');
    const coin = this.coins.find((c) => c.coin === coinName.toLowerCase());
    if (!coin)
      throw errors.badRequest(`coin does not have a valid value: unknown coin ${coinName}`);
    const found = coin.networkList.find((n) => n.network === networkName.toUpperCase());
    if (!found) {
      throw errors.badRequest(
        `network does not have a valid value: ${coin.coin} has no network ${networkName} (networks: ${coin.networkList.map((n) => n.network).join(', ')})`,
      );
    }
    return { coin, network: found };
  }

  /** The account's deposit address for a coin on a network: the same on every call. */
  depositAddress(
    accountId: number,
    coinName?: string,
    networkName?: string,
  ): { address: string; coin: string; tag: string; url: string } {
    const { coin, network } = this.network(coinName, networkName);
    if (!network.depositEnable) {
      throw errors.badRequest(
        `Deposits of ${coin.coin} on network ${network.network} are currently disabled`,
      );
    }
    // From the world's seed, never from the account's keys (see addresses.ts).
    const random = seededSource(
      `deposit-address:${this.seed}:${accountId}:${coin.coin}:${network.network}`,
    );
    const address = addressFor(network.network, random);
    const url = explorerUrl(network.network, address);
    const tag = network.memoRequired ? String(random.int(1, 999_999_999)) : '';
    return { address, coin: coin.coin, tag, url };
  }

  private insert(entry: WithdrawEntry): void {
    let list = this.withdrawals.get(entry.accountId);
    if (!list) {
      list = [];
      this.withdrawals.set(entry.accountId, list);
    }
    const last = list[list.length - 1];
    if (!last || last.createdAt <= entry.createdAt) list.push(entry);
    else
      list.splice(
        lowerBound(list, entry.createdAt + 1, (e) => e.createdAt),
        0,
        entry,
      );
    this.byId.set(entry.id, entry);
  }

  /** Debits amount + network fee now and records a Pending withdrawal. */
  requestWithdrawal(
    accountId: number,
    input: {
      coin: string;
      network: string;
      amount: string;
      address: string;
      withdrawOrderId?: string;
    },
  ): { id: string } {
    const { coin, network } = this.network(input.coin, input.network);
    if (!network.withdrawEnable) {
      throw errors.badRequest(
        `Withdrawals of ${coin.coin} on network ${network.network} are currently disabled`,
      );
    }
    const amount = parseFixed(input.amount);
    if (amount === undefined || amount <= 0n)
      throw errors.invalid('amount', 'a positive decimal number');
    if (amount < parseFixed(network.withdrawMin)!)
      throw errors.invalid('amount', `at least ${network.withdrawMin}`);
    if (amount > parseFixed(network.withdrawMax)!)
      throw errors.invalid('amount', `at most ${network.withdrawMax}`);
    if (!input.address) throw errors.missing('address');
    const fee = parseFixed(network.withdrawFee)!;
    this.ledger.debit(accountId, coin.coin, amount + fee);
    this.ledger.flush();
    const now = this.clock.now();
    const entry: WithdrawEntry = {
      id: String(this.nextWithdrawId++),
      accountId,
      coin: coin.coin,
      network: network.network,
      address: input.address,
      amount,
      transactionFee: fee,
      createdAt: now,
      lastUpdated: now,
      status: WITHDRAW_STATUS.pending,
      withdrawOrderId: input.withdrawOrderId,
      partnerTransfer: false,
      txId: undefined,
      failureInfo: '',
      debited: true,
    };
    this.insert(entry);
    return { id: entry.id };
  }

  settleWithdrawal(id: string, outcome: 'success' | 'failed'): void {
    const entry = this.byId.get(id);
    if (!entry) throw new Error(`no withdrawal ${id}`);
    if (entry.status !== WITHDRAW_STATUS.pending)
      throw new Error(`withdrawal ${id} is not pending`);
    entry.lastUpdated = this.clock.now();
    if (outcome === 'success') {
      entry.status = WITHDRAW_STATUS.success;
      if (!entry.partnerTransfer && entry.network !== undefined) {
        entry.txId = txIdFor(entry.network, seededSource(`withdraw-tx:${this.seed}:${id}`));
      }
    } else {
      entry.status = WITHDRAW_STATUS.failed;
      entry.failureInfo = 'The destination address rejected the transfer; the amount was refunded';
      if (entry.debited) {
        this.ledger.credit(entry.accountId, entry.coin, entry.amount + entry.transactionFee);
        this.ledger.flush();
      }
    }
  }

  /** Fees held for the account's pending withdrawals, per coin (the funds' reservedFee). */
  reservedFees(accountId: number): Map<string, bigint> {
    const fees = new Map<string, bigint>();
    for (const entry of this.withdrawals.get(accountId) ?? []) {
      if (entry.status === WITHDRAW_STATUS.pending && entry.debited) {
        fees.set(entry.coin, (fees.get(entry.coin) ?? 0n) + entry.transactionFee);
      }
    }
    return fees;
  }

  /** History records (no balance effect), spread evenly over [fromMs, toMs], deterministic. */
  seedWithdrawHistory(
    accountId: number,
    input: { count: number; fromMs: number; toMs: number; seed?: number },
  ): number {
    const random = seededSource(`withdraw-history:${input.seed ?? this.seed}`);
    const count = Math.max(0, Math.floor(input.count));
    const step = count > 1 ? (input.toMs - input.fromMs) / (count - 1) : 0;
    const statuses = [0, 0, 0, 0, 0, 1, 2, 3];
    for (let i = 0; i < count; i++) {
      const createdAt = Math.round(input.fromMs + step * i);
      const coin = random.pick(this.coins);
      const partner = coin.partnerTransferEnable && random.next() < 0.25;
      const withdrawable = coin.networkList.filter((n) => n.withdrawEnable);
      const net = random.pick(withdrawable.length > 0 ? withdrawable : coin.networkList);
      const min = Number(net.withdrawMin) || 0.001;
      const amountText = (min * (1 + random.int(0, 400) / 10)).toFixed(6);
      const status = i % 11 === 0 ? statuses[(i / 11) % statuses.length]! : random.pick(statuses);
      const id = String(this.nextWithdrawId++);
      const address = addressFor(net.network, random);
      const txId = txIdFor(net.network, random);
      const withdrawOrderId = `wd-${random.hex(12)}`;
      this.insert({
        id,
        accountId,
        coin: coin.coin,
        network: partner ? undefined : net.network,
        address: partner ? undefined : address,
        amount: parseFixed(amountText)!,
        transactionFee: parseFixed(partner ? coin.partnerTransferFee : net.withdrawFee)!,
        createdAt,
        lastUpdated:
          createdAt + (status === WITHDRAW_STATUS.pending ? 0 : random.int(60_000, 3_600_000)),
        status,
        withdrawOrderId: random.next() < 0.3 ? withdrawOrderId : undefined,
        partnerTransfer: partner,
        txId: partner || status !== WITHDRAW_STATUS.success ? undefined : txId,
        failureInfo:
          status === WITHDRAW_STATUS.failed
            ? 'Withdrawal rejected by the network: invalid destination address'
            : '',
        debited: false,
      });
    }
    return count;
  }

  /** GET /sapi/v1/crypto/withdraws: every filter, the 90-day rule, newest first, offset/limit. */
  queryWithdraws(accountId: number, params: Record<string, string | undefined>): WithdrawRecord[] {
    const now = this.clock.now();
    const startTime = optionalInteger(params, 'startTime');
    const endTime = optionalInteger(params, 'endTime');
    const limit = optionalInteger(params, 'limit') ?? 100;
    const offset = optionalInteger(params, 'offset') ?? 0;
    const status = optionalInteger(params, 'status');
    const transferType = optionalInteger(params, 'transferType');
    if (limit < 1 || limit > 1000) throw errors.invalid('limit', 'from 1 to 1000');
    if (offset < 0) throw errors.invalid('offset', 'must not be negative');
    if (status !== undefined && (status < 0 || status > 3))
      throw errors.invalid('status', '0, 1, 2 or 3');
    if (transferType !== undefined && transferType !== 1 && transferType !== 2) {
      throw errors.invalid('transferType', '1 (on-chain) or 2 (partner transfer)');
    }
    if (startTime !== undefined && endTime !== undefined) {
      if (startTime > endTime) throw errors.invalid('startTime', 'must not be after endTime');
      if (endTime - startTime >= NINETY_DAYS_MS)
        throw errors.invalid('endTime', 'the span from startTime must be under 90 days');
    }
    const from = startTime ?? now - NINETY_DAYS_MS;
    const to = endTime ?? now;
    const coin = params.coin?.toLowerCase();
    const withdrawOrderId = params.withdrawOrderId;
    const list = this.withdrawals.get(accountId) ?? [];
    const lo = lowerBound(list, from, (e) => e.createdAt);
    const hi = lowerBound(list, to + 1, (e) => e.createdAt);
    const out: WithdrawRecord[] = [];
    let skipped = 0;
    for (let i = hi - 1; i >= lo && out.length < limit; i--) {
      const entry = list[i]!;
      if (coin !== undefined && entry.coin !== coin) continue;
      if (transferType === 1 && entry.partnerTransfer) continue;
      if (transferType === 2 && !entry.partnerTransfer) continue;
      if (withdrawOrderId !== undefined && entry.withdrawOrderId !== withdrawOrderId) continue;
      if (status !== undefined && entry.status !== status) continue;
      if (skipped < offset) {
        skipped++;
        continue;
      }
      out.push(toRecord(entry));
    }
    return out;
  }

  withdrawCount(accountId: number): number {
    return this.withdrawals.get(accountId)?.length ?? 0;
  }
}

function toRecord(entry: WithdrawEntry): WithdrawRecord {
  const record: WithdrawRecord = {
    partnerTransfer: entry.partnerTransfer,
    amount: formatFixed(entry.amount),
    createdAt: formatUtc(entry.createdAt),
    lastUpdated: formatUtc(entry.lastUpdated),
    coin: entry.coin,
    id: entry.id,
    status: entry.status,
    transactionFee: formatFixed(entry.transactionFee),
    failureInfo: entry.failureInfo,
  };
  if (entry.address !== undefined) record.address = entry.address;
  if (entry.network !== undefined) record.network = entry.network;
  if (entry.txId !== undefined) record.txId = entry.txId;
  if (entry.withdrawOrderId !== undefined) record.withdrawOrderId = entry.withdrawOrderId;
  return record;
}

/** An optional integer parameter; 1999 when present but not an integer. */
export function optionalInteger(
  params: Record<string, string | undefined>,
  name: string,
): number | undefined {
  const text = params[name];
  if (text === undefined) return undefined;
  if (!/^-?\d{1,16}$/.test(text)) throw errors.invalid(name, 'an integer');
  return Number(text);
}
