import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock';
import { errors } from './errors';
import { formatFixed, parseFixed } from './fixed';
import type { Ledger } from './ledger';

export type SecurityType = 'NONE' | 'MARKET_DATA' | 'TRADE' | 'USER_DATA';
export const MAX_API_KEYS_PER_ACCOUNT = 5;

export interface Account {
  id: number;
  email: string;
  parentId: number | undefined;
  createdAt: number;
}

export interface ApiKey {
  apiKey: string;
  secretKey: string;
  /** The secret as HMAC key bytes, prepared once. */
  secretBytes: Buffer;
  accountId: number;
  canTrade: boolean;
  allowedSecurityTypes: Set<SecurityType>;
  ipAllowList: string[];
}

export interface TransferRecord {
  asset: string;
  from: string;
  to: string;
  qty: string;
  status: string;
  time: number;
  txnId: number;
  /** The parent of the family, whose history lists it. */
  parentId: number;
}

/** Accounts, their API keys and the parent/sub-account family with its transfers. */
export class Accounts {
  private readonly byId = new Map<number, Account>();
  private readonly byEmail = new Map<string, Account>();
  private readonly keys = new Map<string, ApiKey>();
  private readonly transfers: TransferRecord[] = [];
  private nextAccountId = 1;
  private nextTxnId = 1;

  constructor(
    private readonly clock: Clock,
    private readonly ledger: Ledger,
  ) {}

  createAccount(input: { email: string; parentEmail?: string }): Account {
    const email = input.email.trim().toLowerCase();
    if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new Error(`not an e-mail address: ${input.email}`);
    if (this.byEmail.has(email)) throw new Error(`an account with e-mail ${email} already exists`);
    let parentId: number | undefined;
    if (input.parentEmail !== undefined) {
      const parent = this.byEmail.get(input.parentEmail.trim().toLowerCase());
      if (!parent) throw new Error(`no parent account ${input.parentEmail}`);
      if (parent.parentId !== undefined) throw new Error('a sub-account cannot have sub-accounts');
      parentId = parent.id;
    }
    const account: Account = {
      id: this.nextAccountId++,
      email,
      parentId,
      createdAt: this.clock.now(),
    };
    this.byId.set(account.id, account);
    this.byEmail.set(email, account);
    return account;
  }

  get(id: number): Account | undefined {
    return this.byId.get(id);
  }

  byEmailAddress(email: string): Account | undefined {
    return this.byEmail.get(email.trim().toLowerCase());
  }

  require(email: string): Account {
    const account = this.byEmailAddress(email);
    if (!account) throw new Error(`no account ${email}`);
    return account;
  }

  subAccountsOf(parentId: number): Account[] {
    return [...this.byId.values()].filter((a) => a.parentId === parentId);
  }

  createApiKey(
    accountId: number,
    opts: {
      canTrade?: boolean;
      allowedSecurityTypes?: SecurityType[];
      ipAllowList?: string[];
    } = {},
    random: () => string = () => randomBytes(32).toString('hex'),
  ): ApiKey {
    const owned = [...this.keys.values()].filter((k) => k.accountId === accountId).length;
    if (owned >= MAX_API_KEYS_PER_ACCOUNT) {
      throw new Error(`an account may have at most ${MAX_API_KEYS_PER_ACCOUNT} API keys`);
    }
    const apiKey = random();
    const secretKey = random();
    const key: ApiKey = {
      apiKey,
      secretKey,
      secretBytes: Buffer.from(secretKey, 'utf8'),
      accountId,
      canTrade: opts.canTrade ?? false,
      allowedSecurityTypes: new Set(
        opts.allowedSecurityTypes ?? ['MARKET_DATA', 'TRADE', 'USER_DATA'],
      ),
      ipAllowList: opts.ipAllowList ?? [],
    };
    this.keys.set(apiKey, key);
    return key;
  }

  revokeApiKey(apiKey: string): void {
    if (!this.keys.delete(apiKey)) throw new Error('no such API key');
  }

  key(apiKey: string): ApiKey | undefined {
    return this.keys.get(apiKey);
  }

  /** Moves funds between a parent and one of its own sub-accounts, either way. */
  transfer(
    callerId: number,
    params: { currency?: string; amount?: string; fromEmail?: string; toEmail?: string },
  ): { status: string; txnId: number } {
    const caller = this.byId.get(callerId)!;
    if (caller.parentId !== undefined) throw errors.permissionDenied();
    if (!params.currency) throw errors.missing('currency');
    if (!params.amount) throw errors.missing('amount');
    if (!params.fromEmail) throw errors.missing('fromEmail');
    if (!params.toEmail) throw errors.missing('toEmail');
    const asset = params.currency.toLowerCase();
    if (!/^[a-z0-9]{1,20}$/.test(asset)) throw errors.invalid('currency');
    const amount = parseFixed(params.amount);
    if (amount === undefined || amount <= 0n)
      throw errors.invalid('amount', 'a positive decimal number');
    const from = this.byEmailAddress(params.fromEmail);
    const to = this.byEmailAddress(params.toEmail);
    const inFamily = (a: Account | undefined) =>
      a !== undefined && (a.id === caller.id || a.parentId === caller.id);
    if (!inFamily(from))
      throw errors.invalid('fromEmail', 'not the parent account or one of its sub-accounts');
    if (!inFamily(to))
      throw errors.invalid('toEmail', 'not the parent account or one of its sub-accounts');
    if (from!.id === to!.id)
      throw errors.badRequest('fromEmail and toEmail must be different accounts');
    if (from!.id !== caller.id && to!.id !== caller.id) {
      throw errors.badRequest(
        'transfers between two sub-accounts are not allowed; one side must be the parent',
      );
    }
    this.ledger.debit(from!.id, asset, amount);
    this.ledger.credit(to!.id, asset, amount);
    this.ledger.flush();
    const record: TransferRecord = {
      asset,
      from: from!.email,
      to: to!.email,
      qty: formatFixed(amount),
      status: 'success',
      time: this.clock.now(),
      txnId: this.nextTxnId++,
      parentId: caller.id,
    };
    this.transfers.push(record);
    return { status: 'success', txnId: record.txnId };
  }

  /** Seeds a past transfer (demo world history); balances are set up separately. */
  recordPastTransfer(
    parentId: number,
    asset: string,
    from: string,
    to: string,
    qty: string,
    time: number,
  ): void {
    this.transfers.push({
      asset,
      from,
      to,
      qty,
      status: 'success',
      time,
      txnId: this.nextTxnId++,
      parentId,
    });
    this.transfers.sort((a, b) => a.time - b.time || a.txnId - b.txnId);
  }

  transferHistory(parentId: number): Omit<TransferRecord, 'parentId'>[] {
    return this.transfers
      .filter((t) => t.parentId === parentId)
      .map(({ asset, from, to, qty, status, time, txnId }) => ({
        asset,
        from,
        to,
        qty,
        status,
        time,
        txnId,
      }));
  }
}
