/**
 * What every handler group is built from: the store, the active profile's session, the event
 * emitter, the settings and the logger. Handlers never reach the exchange or the keychain except
 * through the session.
 */
import type { SyncStorePort } from '../sync/port';
import type { BridgeHandlers, MethodName, Namespace } from '../../shared/contract';
import type { KeychainStatus, Settings, StoreNotice } from '../../shared/types';
import type { Emit } from '../core/events';
import type { Logger } from '../core/logger';
import type { Notifier } from '../core/notifier';
import type { AlertEditor } from '../alerts/editor';
import type { Activity } from '../live/activity';
import type { AllProfiles } from '../ledger/all-profiles';
import type { LedgerFigures } from '../ledger/figures';
import type { MarketCache } from '../market/cache';
import type { OrderDesk } from '../orders/desk';
import type { OrderHistory } from '../orders/history';
import type { ExchangeRules } from '../rules/exchange-rules';
import type { Store } from '../store';
import type { AppLock, SensitiveActions } from '../lock';
import type { ActiveSession, SessionManager } from '../session/manager';
import type { SettingsEditor } from '../settings/editor';
import type { Transfers } from '../transfers';
import type { SubAccountLinks } from '../session/sub-account-links';

/** The handlers of one contract area, e.g. HandlerGroup<'orders'> for orders.*. */
export type HandlerGroup<N extends Namespace> = {
  [K in MethodName<N>]: BridgeHandlers[K];
};

export interface ApiContext {
  readonly mode: 'desktop' | 'browser';
  readonly version: string;
  readonly store: Store;
  readonly log: Logger;
  readonly emit: Emit;
  readonly session: SessionManager;
  /** Public market data, with the last answers kept for when the exchange does not answer. */
  readonly marketCache: MarketCache;
  /** The ledger's figures, settings and reports as the screens ask for them. */
  readonly ledgerFigures: LedgerFigures;
  /** Every profile together: net worth, allocation, P&L and the value history. */
  readonly allProfiles: AllProfiles;
  /** Checks against what the exchange lists, made before a request is sent. */
  readonly rules: ExchangeRules;
  /** Orders tested, placed and canceled, and their value against the Settings' threshold. */
  readonly orders: OrderDesk;
  /** The open orders, the order history and the own trades from the cache. */
  readonly orderHistory: OrderHistory;
  /** Making and changing the active profile's alerts (the session evaluates them). */
  readonly alerts: AlertEditor;
  /** Transfers between the main account and its sub-accounts, and the sub-accounts' views. */
  readonly transfers: Transfers;
  /** Sub-accounts linked to their own key: linking (checked with the exchange) and unlinking. */
  readonly subAccountLinks: SubAccountLinks;
  /** The recent-activity feed and the notifications. */
  readonly activity: Activity;
  /** Changes the user's preferences (settings() reads them). */
  readonly settingsEditor: SettingsEditor;
  /** Sync's port onto the store (what sync keeps, in sync's words), built once in app.ts. */
  readonly syncPort: SyncStorePort;
  readonly notifier?: Notifier | undefined;
  /** The app lock: while locked the dispatcher answers only the lock's own methods. */
  readonly lock: AppLock;
  /** Which calls ask for the lock password again (when it was given too long ago). */
  readonly sensitiveActions: SensitiveActions<ActiveSession>;
  now(): number;
  settings(): Settings;
  keychain(): KeychainStatus;
  readonly storeRecovered?: { movedTo: string; reason: string };
  /** What the store did to the local data at this start (a rebuilt cache, a restored record). */
  readonly storeNotices?: StoreNotice[];
}
