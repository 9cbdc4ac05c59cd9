/**
 * The app lock as the page sees it: the lock's state (from lock.status and the lock.changed
 * event, provided by the lock screen's gate), and the calls that change it. The main process
 * decides; the page only shows and asks.
 */
import { createContext, useContext } from 'react';
import type { LockStatus } from '../../../shared/lock';

export interface LockContextValue {
  status: LockStatus;
  /** The state after a call that changed it, without waiting for the event. */
  update(status: LockStatus): void;
  lockNow(): Promise<void>;
}

export const LockContext = createContext<LockContextValue | null>(null);

export function useLock(): LockContextValue {
  const value = useContext(LockContext);
  if (!value) throw new Error('useLock is used outside the lock gate');
  return value;
}
