import { createContext, useContext } from 'react';
import type {
  AppStatus,
  ConnectionState,
  ProfileView,
  Settings,
  SymbolView,
} from '../../shared/types';
import type { Route } from './lib/router';

export interface AppContextValue {
  status: AppStatus;
  settings: Settings;
  profiles: ProfileView[];
  activeProfile: ProfileView | null;
  connection: { state: ConnectionState; since: number };
  symbols: SymbolView[];
  /** Digits after the dot for an asset, from the exchange's symbols; 8 when unknown. */
  precisionOf: (asset: string) => number;
  updateSettings: (patch: Partial<Settings>) => Promise<void>;
  reloadProfiles: () => Promise<void>;
  navigate: (route: Route) => void;
  toast: (toast: {
    title: string;
    body?: string;
    tone?: 'info' | 'success' | 'error';
    hasAmounts?: boolean;
    /** A toast of the same group already shown is replaced in place, not stacked. */
    group?: string;
  }) => void;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp is used outside the app shell');
  return value;
}
