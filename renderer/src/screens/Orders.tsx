/**
 * The Orders screen: open orders, order history and own trades with their fees, of the main
 * account, one sub-account or every account (a sub-account's are read with a key of its own,
 * linked on the Sub-accounts screen; those without one are named), and the order form (the main
 * account's). Every row says its account once the profile has sub-accounts; a sub-account's order
 * is canceled with its own key, and what the exchange answers is said on that order's row.
 * Until a sub-account is linked every row is the main account's, and no Account column is shown.
 */
import { Fragment, useMemo, useRef, useState } from 'react';
import { MAIN_ACCOUNT } from '../../../shared/ledger';
import type { OrderStatus, OrderView } from '../../../shared/types';
import { formatDateTime, formatSymbol } from '../../../shared/format';
import { useApp } from '../context';
import { useBridgeAction, useBridgeQuery } from '../lib/query';
import { PlaceOrderForm } from '../components/PlaceOrderForm';
import { KeyPermissions, noTradeReason } from '../components/KeyPermissions';
import { actions, figures, TableHead } from '../components/TableHead';
import {
  AccountScopeSwitch,
  accountScopeInput,
  type AccountScope,
} from '../components/ScopeSwitch';
import { UnlinkedAccounts } from '../components/SubAccountKey';
import {
  Amount,
  ConfirmActions,
  EmptyState,
  ErrorBox,
  InlineError,
  Modal,
  PageHeader,
  Skeleton,
  QueryStatus,
} from '../components/common';

type Tab = 'open' | 'history' | 'trades';

const statusText: Record<OrderStatus, string> = {
  idle: 'Waiting for stop',
  wait: 'Open',
  done: 'Filled',
  cancel: 'Canceled',
};

export function Orders() {
  const [tab, setTab] = useState<Tab>('open');
  const [scope, setScope] = useState<AccountScope>('every');
  return (
    <section className="page" data-testid="screen-orders">
      <PageHeader title="Orders" />
      <div className="grid two-one orders-grid">
        <div className="card">
          <div className="tabs" role="tablist" aria-label="Orders">
            {(
              [
                ['open', 'Open orders'],
                ['history', 'Order history'],
                ['trades', 'Trades & fees'],
              ] as const
            ).map(([id, label]) => (
              <button
                key={id}
                type="button"
                role="tab"
                aria-selected={tab === id}
                className={tab === id ? 'active' : undefined}
                onClick={() => setTab(id)}
                data-testid={`tab-${id}`}
              >
                {label}
              </button>
            ))}
          </div>
          {tab === 'open' && <OpenOrders scope={scope} onScope={setScope} />}
          {tab === 'history' && <OrderHistory scope={scope} onScope={setScope} />}
          {tab === 'trades' && <OwnTrades scope={scope} onScope={setScope} />}
        </div>
        <PlaceOrderForm />
      </div>
    </section>
  );
}

interface ScopeProps {
  scope: AccountScope;
  onScope: (scope: AccountScope) => void;
}

/** The scope switch and the sub-accounts of the scope that cannot be read, above each tab. */
function AccountsLine(
  props: ScopeProps & {
    covered: { subAccounts: string[]; unlinked: string[] } | undefined;
  },
) {
  return (
    <div className="orders-accounts">
      <AccountScopeSwitch
        scope={props.scope}
        onChange={props.onScope}
        subAccounts={props.covered?.subAccounts}
        testIdPrefix="orders-scope"
      />
      <UnlinkedAccounts unlinked={props.covered?.unlinked ?? []} testId="orders-unlinked" />
    </div>
  );
}

function accountName(account: string): string {
  return account === MAIN_ACCOUNT ? 'Main account' : account;
}

function AccountCell({ account }: { account: string }) {
  return <td data-testid="order-account">{accountName(account)}</td>;
}

function SymbolName({ symbol }: { symbol: string }) {
  const { symbols } = useApp();
  const info = symbols.find((s) => s.symbol === symbol);
  return <>{formatSymbol(symbol, info?.baseAsset, info?.quoteAsset)}</>;
}

function useSymbolAssets() {
  const { symbols } = useApp();
  return (symbol: string) => {
    const info = symbols.find((s) => s.symbol === symbol);
    return { base: info?.baseAsset ?? '', quote: info?.quoteAsset ?? '' };
  };
}

function AmountCell(props: { value: string | null | undefined; asset: string; unit?: boolean }) {
  return (
    <td className="num">
      <Amount value={props.value} asset={props.asset} unit={props.unit} />
    </td>
  );
}

/** The columns of an order in the open and the past orders' tables, after the symbol's. */
const ORDER_COLUMNS = [
  'Side',
  'Type',
  figures('Price'),
  figures('Quantity'),
  figures('Filled'),
  'Status',
];

/** An order's time, its account and market when asked for, and the cells of ORDER_COLUMNS. */
function OrderCells(props: { order: OrderView; withSymbol?: boolean; withAccount?: boolean }) {
  const { order } = props;
  const { base, quote } = useSymbolAssets()(order.symbol);
  return (
    <>
      <td title={formatDateTime(order.createdTime)}>
        {formatDateTime(order.createdTime).slice(5, 16)}
      </td>
      {props.withAccount && <AccountCell account={order.account} />}
      {props.withSymbol && (
        <td>
          <SymbolName symbol={order.symbol} />
        </td>
      )}
      <td className={`side-${order.side}`}>{order.side}</td>
      <td>
        {order.type === 'stop_limit' ? (
          <>
            Stop-limit{' '}
            <span className="muted">
              @ <Amount value={order.stopPrice} asset={quote} />
            </span>
          </>
        ) : (
          'Limit'
        )}
      </td>
      <AmountCell value={order.price} asset={quote} />
      <AmountCell value={order.origQty} asset={base} />
      <AmountCell value={order.executedQty} asset={base} />
      <td data-testid="order-status">
        {order.goneAt != null ? (
          <span title={`Found gone ${formatDateTime(order.goneAt)}`}>
            No longer on the exchange
          </span>
        ) : (
          statusText[order.status]
        )}
      </td>
    </>
  );
}

/** A market's open orders of one account: what "Cancel all" cancels. */
interface OrderGroup {
  key: string;
  account: string;
  symbol: string;
  orders: OrderView[];
}

/** Test ids of the main account's groups stay as they were before there were others. */
function groupTestId(what: string, group: { account: string; symbol: string }): string {
  return group.account === MAIN_ACCOUNT
    ? `${what}-${group.symbol}`
    : `${what}-${group.symbol}-${group.account}`;
}

function OpenOrders(props: ScopeProps) {
  const { activeProfile } = useApp();
  const assetsOf = useSymbolAssets();
  const open = useBridgeQuery('orders.open', accountScopeInput(props.scope));
  const [confirmAll, setConfirmAll] = useState<{
    symbol: string;
    account: string;
    count: number;
  } | null>(null);
  const [status, setStatus] = useState('');
  // Where focus rests after a cancel: a status line, never the next order's Cancel button, so a
  // second Enter cancels nothing.
  const statusLine = useRef<HTMLParagraphElement>(null);
  const canTrade = activeProfile?.canTrade ?? false;
  const refusal = activeProfile && !canTrade ? noTradeReason(activeProfile) : undefined;
  // The profile's key trades for the main account only: a sub-account's own key is asked of the
  // exchange, which answers on the row.
  const mayCancel = (account: string) => account !== MAIN_ACCOUNT || canTrade;
  const refusalOf = (account: string) => (account === MAIN_ACCOUNT ? refusal : undefined);
  const withAccount = (open.data?.linked.length ?? 0) > 0;
  const groups = useMemo(() => {
    const byKey = new Map<string, OrderGroup>();
    for (const order of open.data?.rows ?? []) {
      const key = `${order.symbol} ${order.account}`;
      const group = byKey.get(key) ?? {
        key,
        account: order.account,
        symbol: order.symbol,
        orders: [],
      };
      group.orders.push(order);
      byKey.set(key, group);
    }
    // The main account's first within a market, then the sub-accounts by e-mail.
    const rank = (account: string) => (account === MAIN_ACCOUNT ? '' : account);
    return [...byKey.values()].sort(
      (a, b) => a.symbol.localeCompare(b.symbol) || rank(a.account).localeCompare(rank(b.account)),
    );
  }, [open.data]);
  const marketName = (symbol: string) => {
    const { base, quote } = assetsOf(symbol);
    return formatSymbol(symbol, base || undefined, quote || undefined);
  };
  const announce = (text: string) => {
    setStatus(text);
    statusLine.current?.focus();
  };

  const cancelOne = useBridgeAction('orders.cancel', {
    onSuccess: (_, { symbol, orderId }) => {
      // The cancel's notification brings the toast; the status line says it where focus is.
      announce(`Order ${orderId} on ${marketName(symbol)} canceled.`);
      open.reload();
    },
    onError: (_, { orderId }) => announce(`Order ${orderId} was not canceled.`),
  });
  const cancelMarket = useBridgeAction('orders.cancelAll', {
    onSuccess: (result, { symbol }) => {
      const count = result.canceled.length;
      const text = `Canceled ${count} order${count === 1 ? '' : 's'} on ${marketName(symbol)}`;
      announce(`${text}.`);
      open.reload();
    },
    onError: (_, { symbol }) => announce(`The orders on ${marketName(symbol)} were not canceled.`),
  });
  const orderKey = (order: { account?: string | undefined; orderId: number }) =>
    `order:${order.account ?? MAIN_ACCOUNT}:${order.orderId}`;
  // One cancel at a time: while one is on its way every Cancel button is held.
  const busy =
    cancelOne.pending && cancelOne.input
      ? orderKey(cancelOne.input)
      : cancelMarket.pending && cancelMarket.input
        ? `symbol:${cancelMarket.input.symbol}`
        : null;
  // A cancel's refusal is said on its order's row; a market's, above the orders.
  const rowError =
    cancelOne.error !== undefined && cancelOne.input ? orderKey(cancelOne.input) : null;

  const cancel = (order: OrderView) => {
    if (busy !== null) return;
    cancelMarket.reset();
    announce(`Canceling order ${order.id}…`);
    void cancelOne.run({ symbol: order.symbol, orderId: order.id, account: order.account });
  };
  const cancelAll = (symbol: string, account: string) => {
    setConfirmAll(null);
    if (busy !== null) return;
    cancelOne.reset();
    announce(`Canceling all orders on ${marketName(symbol)}…`);
    void cancelMarket.run({ symbol, account });
  };

  const statusAndNotice = (
    <>
      <AccountsLine scope={props.scope} onScope={props.onScope} covered={open.data} />
      {activeProfile && !canTrade && (
        <div data-testid="orders-permission">
          <KeyPermissions
            profile={activeProfile}
            disabled={`${refusal ?? ''}, so Cancel and Cancel all are disabled${withAccount ? " for the main account's orders" : ''}.`}
          />
        </div>
      )}
      <p
        ref={statusLine}
        className="orders-status muted small-text"
        role="status"
        tabIndex={-1}
        data-testid="orders-status"
      >
        {status}
      </p>
    </>
  );

  if (open.error !== undefined && !open.data)
    return <ErrorBox error={open.error} onRetry={open.reload} />;
  if (!open.data) return <Skeleton rows={4} />;
  if (open.data.rows.length === 0)
    return (
      <>
        {statusAndNotice}
        <EmptyState title="No open orders" testId="open-orders-empty">
          Place a limit or stop-limit order with the form.
        </EmptyState>
      </>
    );
  return (
    <div data-testid="open-orders">
      {statusAndNotice}
      {cancelMarket.error !== undefined && <InlineError error={cancelMarket.error} />}
      {confirmAll && (
        <Modal
          title="Cancel all orders?"
          onClose={() => setConfirmAll(null)}
          testId="cancel-all-confirm"
          returnFocus={() => statusLine.current}
        >
          <p>
            Cancel all {confirmAll.count} open order{confirmAll.count === 1 ? '' : 's'} on{' '}
            {marketName(confirmAll.symbol)}
            {withAccount ? ` of ${accountName(confirmAll.account)}` : ''}?
          </p>
          <p className="muted">
            Orders placed on this market elsewhere (another app, the exchange&apos;s site) are
            canceled too.
          </p>
          <ConfirmActions
            confirmLabel={`Cancel ${confirmAll.count} order${confirmAll.count === 1 ? '' : 's'}`}
            busyLabel="Canceling…"
            busy={busy !== null}
            backLabel="Keep them"
            backTestId="cancel-all-keep"
            onBack={() => setConfirmAll(null)}
            onConfirm={() => cancelAll(confirmAll.symbol, confirmAll.account)}
            testId="cancel-all-confirm-go"
            danger
            focusBack
          />
        </Modal>
      )}
      {groups.map(({ key, account, symbol, orders }) => (
        <div
          key={key}
          className="order-group"
          data-testid={groupTestId('order-group', { account, symbol })}
        >
          <div className="card-header">
            <h3>
              <SymbolName symbol={symbol} />
              {withAccount && <span className="muted"> · {accountName(account)}</span>}
            </h3>
            <button
              type="button"
              className="small danger"
              disabled={busy !== null || !mayCancel(account)}
              title={refusalOf(account)}
              onClick={() => setConfirmAll({ symbol, account, count: orders.length })}
              data-testid={groupTestId('cancel-all', { account, symbol })}
            >
              Cancel all {symbol.toUpperCase()}
            </button>
          </div>
          <div className="table-wrap">
            <table className="table dense">
              <TableHead
                columns={['Time', ...(withAccount ? ['Account'] : []), ...ORDER_COLUMNS, actions]}
              />
              <tbody>
                {orders.map((order) => {
                  const key = orderKey({ account: order.account, orderId: order.id });
                  return (
                    <Fragment key={key}>
                      <tr data-testid={`open-order-${order.id}`} data-account={order.account}>
                        <OrderCells order={order} withAccount={withAccount} />
                        <td>
                          <button
                            type="button"
                            className="small"
                            disabled={busy !== null || !mayCancel(order.account)}
                            title={refusalOf(order.account)}
                            onClick={() => cancel(order)}
                            aria-label={`Cancel order ${order.id}`}
                            data-testid="cancel-order"
                          >
                            {busy === key ? 'Canceling…' : 'Cancel'}
                          </button>
                        </td>
                      </tr>
                      {rowError === key && (
                        <tr data-testid={`cancel-error-${order.id}`}>
                          <td colSpan={ORDER_COLUMNS.length + (withAccount ? 3 : 2)}>
                            <InlineError error={cancelOne.error} />
                          </td>
                        </tr>
                      )}
                    </Fragment>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>
      ))}
    </div>
  );
}

function OrderHistory(props: ScopeProps) {
  const [status, setStatus] = useState<'' | OrderStatus>('');
  const history = useBridgeQuery('orders.history', {
    ...accountScopeInput(props.scope),
    status: status || undefined,
    limit: 200,
  });
  const withAccount = (history.data?.linked.length ?? 0) > 0;
  return (
    <div>
      <AccountsLine scope={props.scope} onScope={props.onScope} covered={history.data} />
      <div className="filters">
        <label>
          <span>Status</span>
          <select value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
            <option value="">Any</option>
            {(Object.keys(statusText) as OrderStatus[]).map((s) => (
              <option key={s} value={s}>
                {statusText[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <QueryStatus query={history} rows={4} />
      {history.data && history.data.rows.length === 0 && <EmptyState title="No orders yet" />}
      {history.data && history.data.rows.length > 0 && (
        <div className="table-wrap">
          <table className="table dense" data-testid="order-history">
            <TableHead
              columns={['Time', ...(withAccount ? ['Account'] : []), 'Symbol', ...ORDER_COLUMNS]}
            />
            <tbody>
              {history.data.rows.map((order) => (
                <tr
                  key={`${order.account} ${order.id}`}
                  data-testid={`history-order-${order.id}`}
                  data-account={order.account}
                >
                  <OrderCells order={order} withSymbol withAccount={withAccount} />
                </tr>
              ))}
            </tbody>
          </table>
          {history.data.total > history.data.rows.length && (
            <p className="muted small-text">
              Showing the latest {history.data.rows.length} of{' '}
              {history.data.total.toLocaleString('en-US')} orders.
            </p>
          )}
        </div>
      )}
    </div>
  );
}

function OwnTrades(props: ScopeProps) {
  const assetsOf = useSymbolAssets();
  const trades = useBridgeQuery('orders.trades', { ...accountScopeInput(props.scope), limit: 200 });
  const line = <AccountsLine scope={props.scope} onScope={props.onScope} covered={trades.data} />;
  if (trades.error !== undefined && !trades.data)
    return <ErrorBox error={trades.error} onRetry={trades.reload} />;
  if (!trades.data) return <Skeleton rows={4} />;
  const withAccount = trades.data.linked.length > 0;
  return (
    <div data-testid="own-trades">
      {line}
      <div className="fees" data-testid="fees-paid">
        <strong>Fees paid:</strong>{' '}
        {trades.data.feesByAsset.length === 0
          ? 'none yet'
          : trades.data.feesByAsset.map((f, i) => (
              <span key={f.asset}>
                {i > 0 && ', '}
                <Amount value={f.fee} asset={f.asset} unit />
              </span>
            ))}
      </div>
      {trades.data.rows.length === 0 ? (
        <EmptyState title="No trades yet">
          Your fills appear here with the fee paid on each.
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table dense">
            <TableHead
              columns={[
                'Time',
                ...(withAccount ? ['Account'] : []),
                'Symbol',
                'Side',
                figures('Price'),
                figures('Quantity'),
                figures('Total'),
                figures('Fee'),
              ]}
            />
            <tbody>
              {trades.data.rows.map((t) => {
                const { base, quote } = assetsOf(t.symbol);
                return (
                  <tr key={`${t.account} ${t.id} ${t.orderId}`} data-account={t.account}>
                    <td>{formatDateTime(t.time)}</td>
                    {withAccount && <AccountCell account={t.account} />}
                    <td>
                      <SymbolName symbol={t.symbol} />
                    </td>
                    <td className={`side-${t.side}`}>
                      {t.side}{' '}
                      <span className="muted">
                        {t.isBuyerMaker === (t.side === 'buy') ? 'maker' : 'taker'}
                      </span>
                    </td>
                    <AmountCell value={t.price} asset={quote} />
                    <AmountCell value={t.qty} asset={base} />
                    <AmountCell value={t.quoteQty} asset={quote} />
                    <AmountCell value={t.fee} asset={t.feeCurrency} unit />
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
