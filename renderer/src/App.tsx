import { useMutation } from '@tanstack/react-query';
import { lazy, memo, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AppStatus, ConnectionState, ProfileView, Settings } from '../../shared/types';
import { formatAge } from '../../shared/format';
import { AppContext, useApp, type AppContextValue } from './context';
import { bridge, errorInfo } from './lib/bridge';
import { useBridgeEvent, useNow } from './lib/hooks';
import { bridgeKey, queryClient, useBridgeQuery } from './lib/query';
import { parseRoute, routeHash, type Route, type ScreenName } from './lib/router';
import { AddressRefusedBanner, ErrorBox, Skeleton, useExchangeStatus } from './components/common';
import { LockButton } from './components/LockSettings';
import { ProfileSwitcher } from './components/ProfileSwitcher';
import { MoneyJournalPanel } from './components/MoneyJournal';
import { OrphanedKeysDialog } from './components/OrphanedKeys';
import { RecordUnavailableScreen, StoreNotices } from './components/StoreNotices';
import { addToast, Toasts, TOAST_SHOWN_MS, type ToastItem } from './components/Toasts';
import iconUrl from '../../resources/icon.png';
import { Portfolio } from './screens/Portfolio';
import { PasswordConfirmDialog } from './components/PasswordConfirm';
import { LockGate } from './screens/Lock';

// Screens other than the portfolio load on first visit, so the first paint needs less code.
const Funds = lazy(() => import('./screens/Funds').then((m) => ({ default: m.Funds })));
const AssetPage = lazy(() => import('./screens/AssetPage').then((m) => ({ default: m.AssetPage })));
const Withdrawals = lazy(() =>
  import('./screens/Withdrawals').then((m) => ({ default: m.Withdrawals })),
);
const Deposit = lazy(() => import('./screens/Deposit').then((m) => ({ default: m.Deposit })));
const SubAccounts = lazy(() =>
  import('./screens/SubAccounts').then((m) => ({ default: m.SubAccounts })),
);
const Orders = lazy(() => import('./screens/Orders').then((m) => ({ default: m.Orders })));
const Markets = lazy(() => import('./screens/Markets').then((m) => ({ default: m.Markets })));
const SymbolPage = lazy(() =>
  import('./screens/SymbolPage').then((m) => ({ default: m.SymbolPage })),
);
const Activity = lazy(() => import('./screens/Activity').then((m) => ({ default: m.Activity })));
const Alerts = lazy(() => import('./screens/Alerts').then((m) => ({ default: m.Alerts })));
const SettingsScreen = lazy(() =>
  import('./screens/Settings').then((m) => ({ default: m.SettingsScreen })),
);
const Onboarding = lazy(() =>
  import('./screens/Onboarding').then((m) => ({ default: m.Onboarding })),
);
const navItems: { screen: ScreenName; label: string; icon: string }[] = [
  { screen: 'portfolio', label: 'Portfolio', icon: '◔' },
  { screen: 'funds', label: 'Funds', icon: '≡' },
  { screen: 'withdrawals', label: 'Withdrawals', icon: '↑' },
  { screen: 'deposit', label: 'Deposit', icon: '↓' },
  { screen: 'sub-accounts', label: 'Sub-accounts', icon: '⇄' },
  { screen: 'orders', label: 'Orders', icon: '☰' },
  { screen: 'markets', label: 'Markets', icon: '↗' },
  { screen: 'activity', label: 'Activity', icon: '●' },
  { screen: 'alerts', label: 'Alerts', icon: '⚑' },
  { screen: 'settings', label: 'Settings', icon: '⚙' },
];

interface Boot {
  status: AppStatus;
  settings: Settings;
  profiles: ProfileView[];
}

function useHashRoute(): [Route, (route: Route) => void] {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onHash = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const navigate = useCallback((next: Route) => {
    window.location.hash = routeHash(next);
  }, []);
  return [route, navigate];
}

function useSystemDark(): boolean {
  const query = useMemo(() => window.matchMedia('(prefers-color-scheme: dark)'), []);
  const [dark, setDark] = useState(query.matches);
  useEffect(() => {
    const onChange = () => setDark(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [query]);
  return dark;
}

/** The calls the shell's boot data comes from; a change of profile keeps their answers. */
const bootMethods: readonly string[] = ['app.status', 'settings.get', 'profiles.list'];

/** Behind the lock: while the app is locked only the lock screen is mounted. */
export function App() {
  return (
    <LockGate>
      <UnlockedApp />
    </LockGate>
  );
}

function UnlockedApp() {
  const statusQuery = useBridgeQuery('app.status');
  const settingsQuery = useBridgeQuery('settings.get');
  const profilesQuery = useBridgeQuery('profiles.list');
  const boot = useMemo<Boot | null>(
    () =>
      statusQuery.data && settingsQuery.data && profilesQuery.data
        ? { status: statusQuery.data, settings: settingsQuery.data, profiles: profilesQuery.data }
        : null,
    [statusQuery.data, settingsQuery.data, profilesQuery.data],
  );
  const bootError = statusQuery.error ?? settingsQuery.error ?? profilesQuery.error;
  const [connection, setConnection] = useState<{ state: ConnectionState; since: number }>({
    state: 'connecting',
    since: Date.now(),
  });
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const toastId = useRef(0);
  const [route, navigate] = useHashRoute();
  const systemDark = useSystemDark();

  const reloadBoot = useCallback(
    () =>
      queryClient.refetchQueries({
        predicate: (query) => bootMethods.includes(String(query.queryKey[0])),
      }),
    [],
  );

  const statusConnection = statusQuery.data?.connection;
  useEffect(() => {
    if (!statusConnection) return;
    setConnection((previous) =>
      previous.state === statusConnection
        ? previous
        : { state: statusConnection, since: Date.now() },
    );
  }, [statusConnection]);

  const activeProfileId = boot?.status.activeProfileId ?? null;
  // Another profile's answers must not stand in for this one's: a switch forgets them all.
  const shownProfile = useRef(activeProfileId);
  useEffect(() => {
    const previous = shownProfile.current;
    shownProfile.current = activeProfileId;
    if (previous === null || previous === activeProfileId) return;
    void queryClient.resetQueries({
      predicate: (query) => !bootMethods.includes(String(query.queryKey[0])),
    });
  }, [activeProfileId]);

  const symbolsQuery = useBridgeQuery('market.symbols', undefined, {
    enabled: activeProfileId !== null,
  });
  const symbols = useMemo(
    () => (activeProfileId === null ? [] : (symbolsQuery.data ?? [])),
    [activeProfileId, symbolsQuery.data],
  );

  useBridgeEvent('connection.state', (payload) =>
    setConnection({ state: payload.state, since: payload.since }),
  );

  const toast = useCallback<AppContextValue['toast']>((item) => {
    const id = ++toastId.current;
    setToasts((list) => addToast(list, { id, tone: 'info', ...item }));
    setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), TOAST_SHOWN_MS);
  }, []);
  useBridgeEvent('notification', (n) =>
    toast({
      title: n.title,
      body: n.body,
      tone: n.kind === 'fill' ? 'success' : 'info',
      hasAmounts: true,
      ...(n.group ? { group: n.group } : {}),
    }),
  );

  const theme = boot?.settings.theme ?? 'system';
  const dark = theme === 'dark' || (theme === 'system' && systemDark);
  useEffect(() => {
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  }, [dark]);
  const privacy = boot?.settings.privacyMode ?? false;
  useEffect(() => {
    document.documentElement.dataset.privacy = privacy ? 'on' : 'off';
  }, [privacy]);

  const precisions = useMemo(() => {
    const map = new Map<string, number>();
    for (const s of symbols) {
      if (!map.has(s.baseAsset)) map.set(s.baseAsset, s.baseAssetPrecision);
      if (!map.has(s.quoteAsset)) map.set(s.quoteAsset, s.quoteAssetPrecision);
    }
    return map;
  }, [symbols]);

  const settingsKey = bridgeKey('settings.get');
  // Optimistic: the switch moves at once; the app's answer (or the old value on failure) follows.
  const { mutateAsync: updateSettings } = useMutation({
    mutationFn: (patch: Partial<Settings>) => bridge().settings.update(patch),
    onMutate: async (patch) => {
      // A read of the settings still under way would answer with the old value over this one.
      await queryClient.cancelQueries({ queryKey: settingsKey });
      const before = queryClient.getQueryData<Settings>(settingsKey);
      queryClient.setQueryData<Settings>(settingsKey, (previous) =>
        previous ? { ...previous, ...patch } : previous,
      );
      return { before };
    },
    onSuccess: (settings) => queryClient.setQueryData<Settings>(settingsKey, settings),
    onError: (_error, _patch, result) =>
      queryClient.setQueryData<Settings>(settingsKey, result?.before),
  });

  const context = useMemo<AppContextValue | null>(() => {
    if (!boot) return null;
    const activeProfile = boot.profiles.find((p) => p.active) ?? null;
    return {
      ...boot,
      activeProfile,
      connection,
      symbols,
      precisionOf: (asset: string) => precisions.get(asset.toLowerCase()) ?? 8,
      updateSettings: async (patch) => void (await updateSettings(patch)),
      reloadProfiles: reloadBoot,
      navigate,
      toast,
    };
  }, [boot, connection, symbols, precisions, updateSettings, reloadBoot, navigate, toast]);

  // The record could not be opened: the app runs nothing else, and says so instead of starting afresh.
  const recordUnavailable = statusQuery.data?.recordUnavailable;
  if (recordUnavailable) return <RecordUnavailableScreen details={recordUnavailable} />;

  if (!context) {
    return (
      <div className="boot">
        {bootError !== undefined ? (
          <ErrorBox error={bootError} onRetry={() => void reloadBoot()} />
        ) : (
          <Skeleton rows={4} label="Starting Spotfolio" />
        )}
      </div>
    );
  }

  const needsOnboarding = !context.status.activeProfileId || route.screen === 'onboarding';
  return (
    <AppContext.Provider value={context}>
      <div className="shell">
        <Sidebar
          current={needsOnboarding ? 'onboarding' : route.screen}
          disabled={!context.status.activeProfileId}
        />
        <main className="content" id="main" tabIndex={-1}>
          <TopBar />
          <AddressRefusedBanner />
          <StoreNotices notices={context.status.storeNotices ?? []} />
          {context.status.activeProfileId && <MoneyJournalPanel />}
          <OrphanedKeysDialog />
          <PasswordConfirmDialog />
          <Suspense
            fallback={
              <div className="page">
                <Skeleton rows={6} />
              </div>
            }
          >
            {needsOnboarding ? <Onboarding /> : <Screen route={route} />}
          </Suspense>
        </main>
        <Toasts
          toasts={toasts}
          privacyMode={privacy}
          onDismiss={(id) => setToasts((list) => list.filter((t) => t.id !== id))}
        />
      </div>
    </AppContext.Provider>
  );
}

// The shell's own state (a toast shown or gone, the connection's state) re-renders the shell, not
// the screen: a Portfolio redrawn per toast held the page while a stream of fills came in.
const Screen = memo(function Screen({ route }: { route: Route }) {
  switch (route.screen) {
    case 'funds':
      return route.asset ? <AssetPage key={route.asset} asset={route.asset} /> : <Funds />;
    case 'withdrawals':
      return <Withdrawals />;
    case 'deposit':
      return <Deposit />;
    case 'sub-accounts':
      return <SubAccounts />;
    case 'orders':
      return <Orders />;
    case 'markets':
      return route.symbol ? <SymbolPage key={route.symbol} symbol={route.symbol} /> : <Markets />;
    case 'activity':
      return <Activity />;
    case 'alerts':
      return <Alerts />;
    case 'settings':
      return <SettingsScreen key={route.profile} editProfile={route.profile} />;
    default:
      return <Portfolio all={route.all === true} />;
  }
});

const Sidebar = memo(function Sidebar({
  current,
  disabled,
}: {
  current: ScreenName;
  disabled: boolean;
}) {
  return (
    <nav className="sidebar" aria-label="Main">
      <div className="brand">
        <img src={iconUrl} alt="" width={24} height={24} />
        <span>Spotfolio</span>
      </div>
      <ul>
        {navItems.map((item) => (
          <li key={item.screen}>
            <a
              href={disabled ? undefined : routeHash({ screen: item.screen })}
              aria-current={current === item.screen ? 'page' : undefined}
              aria-disabled={disabled || undefined}
              className={current === item.screen ? 'active' : undefined}
              data-testid={`nav-${item.screen}`}
              title={item.label}
            >
              <span className="nav-icon" aria-hidden="true">
                {item.icon}
              </span>
              {item.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
});

function connectionTitle(
  stream: { state: ConnectionState; since: number },
  rest: AppStatus['rest'],
  now: number,
): string {
  const restText =
    rest.state === 'ok'
      ? 'REST: answering'
      : rest.state === 'offline'
        ? `REST: not answering${rest.message ? ` (${rest.message})` : ''}`
        : 'REST: not asked yet';
  return `${restText}${rest.since ? ` since ${formatAge(rest.since, now)}` : ''}. Stream: ${stream.state} since ${formatAge(stream.since, now)}.`;
}

const TopBar = memo(function TopBar() {
  const { status, activeProfile, connection, settings, updateSettings, toast } = useApp();
  const now = useNow(5000);
  const exchange = useExchangeStatus();
  const demo = status.demo || activeProfile?.isDemo;
  const togglePrivacy = () =>
    updateSettings({ privacyMode: !settings.privacyMode }).catch((error: unknown) =>
      toast({
        title: 'Could not change privacy mode',
        body: errorInfo(error).advice,
        tone: 'error',
      }),
    );
  return (
    <div className="topbar">
      <div className="topbar-left">
        <ProfileSwitcher />
        {demo && (
          <span
            className="badge demo"
            data-testid="demo-badge"
            title="Built-in sandbox exchange: no real money"
          >
            Demo
          </span>
        )}
        {demo && (
          <a
            className="add-own-key"
            href={routeHash({ screen: 'onboarding' })}
            data-testid="add-own-key"
          >
            Add your exchange key
          </a>
        )}
      </div>
      <div className="topbar-right">
        <LockButton />
        <button
          type="button"
          className="small ghost"
          onClick={() => void togglePrivacy()}
          aria-pressed={settings.privacyMode}
          data-testid="privacy-toggle"
          title="Hide amounts"
        >
          {settings.privacyMode ? '◉ Amounts hidden' : '◎ Hide amounts'}
        </button>
        {exchange.kind !== 'none' && (
          <span
            className={`connection ${exchange.tone}`}
            role="status"
            aria-live="polite"
            data-testid="connection-state"
            data-state={connection.state}
            data-rest={status.rest.state}
            data-kind={exchange.kind}
            title={connectionTitle(connection, status.rest, now)}
          >
            <span className="dot" aria-hidden="true" />
            {exchange.label}
            {exchange.since !== null ? ` · ${formatAge(exchange.since, now)}` : ''}
          </span>
        )}
      </div>
    </div>
  );
});
