/**
 * The renderer's data layer: one TanStack Query client. A query's key is its bridge method and
 * input (`['funds.list', {}]`), so one answer serves every screen that asks the same thing, and
 * the main process's `data.changed` events mark the answers they name as stale (the ones on screen
 * are read again at once, the others when next shown).
 */
import {
  useCallback,
  useDeferredValue,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import {
  QueryClient,
  notifyManager,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryKey,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';
import {
  LIVE_CHANGES_EVERY_MS,
  type MethodInput,
  type MethodName,
  type MethodResult,
  type SpotfolioBridge,
} from '../../../shared/contract';
import type { AppStatus, DataKind, ErrorKind, RestState } from '../../../shared/types';
import { backoffDelay } from '../../../shared/backoff';
import { bridge } from './bridge';

// Observers hear of new data in the same turn, not a timer later: a switch bound to a setting shows
// its new state as soon as the click is handled, instead of springing back for a moment while
// the timer waits behind other work (and a test reading it in that moment sees no change).
notifyManager.setScheduler(queueMicrotask);

/** The query key of a bridge call: the method's name, then its input (`{}` when it takes none). */
export function bridgeKey<K extends MethodName>(method: K, input?: MethodInput<K>): QueryKey {
  return [method, input ?? {}];
}

type AnyMethod = (input?: unknown) => Promise<unknown>;

/** Calls a bridge method by its name, as the key names it. */
export function callBridge<K extends MethodName>(
  method: K,
  input?: MethodInput<K>,
): Promise<MethodResult<K>> {
  const dot = method.indexOf('.');
  const group = (bridge() as unknown as Record<string, Record<string, AnyMethod>>)[
    method.slice(0, dot)
  ];
  const call = group?.[method.slice(dot + 1)];
  if (!call) return Promise.reject(new Error(`The bridge has no method ${method}`));
  return call(input) as Promise<MethodResult<K>>;
}

/**
 * Answers a stream of changes reads again at most this often (ms): the value history is the
 * costliest answer of all and a chart, so a live fill need not redraw it per batch (the P&L card,
 * asked at once, carries the figure). The first change of a quiet spell is read at once. Every
 * 5 s rather than every second: redrawing the chart each second under a stream of fills held the
 * page long enough to delay the fills' own updates (live.fill_to_page p99 33-44 ms at 1 s, 24-26 ms
 * with the chart left alone), and a chart spanning a day or more loses nothing by it.
 */
export const pacedMethods: Partial<Record<MethodName, number>> = { 'ledger.history': 5000 };

/**
 * Answers a change asks for before the others: the P&L card's, what a fill did. The portfolio's
 * summary does not wait for the ledger, so asked together its answer came first and the page
 * rendered it (and painted that frame) while the card's answer, a millisecond behind, waited.
 */
export const firstMethods: ReadonlySet<MethodName> = new Set(['ledger.summary']);

/** The longest the other answers of a change wait for the first ones (ms): about a frame. */
export const FIRST_WAIT_MS = 16;

/** Changes the user made (a setting, a profile): every answer they feed is read again at once. */
const unpacedKinds: ReadonlySet<DataKind> = new Set(['settings', 'profiles']);

/** Answers that may have come from the cache while the exchange was away. */
export const recoveredByReconnect: readonly MethodName[] = [
  'market.symbols',
  'market.tickers',
  'market.klines',
  'market.depth',
];

/**
 * Errors worth asking again for: the exchange or the link to it failed on the way. An answer
 * that says the input, the key or its permissions are wrong is the same on every try, and a
 * rate limit is only made worse by asking again.
 */
const transientKinds: ReadonlySet<ErrorKind | 'unknown'> = new Set([
  'network',
  'server',
  'unknown-outcome',
]);

export function isTransient(error: unknown): boolean {
  const kind = error && typeof error === 'object' ? (error as { kind?: unknown }).kind : undefined;
  return typeof kind === 'string' && transientKinds.has(kind as ErrorKind);
}

export const maxRetries = 2;

export function shouldRetry(failureCount: number, error: unknown): boolean {
  return failureCount < maxRetries && isTransient(error);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Changes are pushed (data.changed), so an answer stays good until one says otherwise;
        // the stale time only bounds how long a missed event (a dropped link) can go unnoticed.
        staleTime: 30_000,
        retry: shouldRetry,
        retryDelay: (attempt) => backoffDelay(attempt, { firstMs: 500, maxMs: 4000 }),
        // Structural sharing (on by default) keeps the object of an identical answer, so a live
        // change that touches other data does not redraw the charts.
        structuralSharing: true,
        refetchOnWindowFocus: false,
      },
    },
  });
}

export const queryClient = createQueryClient();

let stopWatching: (() => void) | null = null;

/**
 * Marks answers stale on the main process's change events, from the start of the page (before
 * any screen listens), so a change that arrives while a prefetched answer is on its way is not
 * lost: the screen that takes that answer finds it stale and reads it again.
 *
 * A call in flight is never cancelled for a change (a busy live market would then starve the
 * screen of any answer): the change asks for one more call after it instead, however many
 * changes arrive meanwhile.
 */
export function watchDataChanges(
  client: QueryClient = queryClient,
  pacing: Partial<Record<MethodName, number>> = pacedMethods,
  changesEvery: number = LIVE_CHANGES_EVERY_MS,
  firstWait: number = FIRST_WAIT_MS,
): () => void {
  const api: SpotfolioBridge = bridge();
  const cache = client.getQueryCache();
  const readAgain = new Set<string>();
  /** Marks `method`'s answers stale; resolves once those on screen are read again. */
  const invalidate = (method: string): Promise<void> => {
    for (const query of cache.findAll({ queryKey: [method] })) {
      if (query.state.fetchStatus === 'fetching') readAgain.add(query.queryHash);
    }
    return client.invalidateQueries({ queryKey: [method] }, { cancelRefetch: false });
  };
  const recover = () => {
    for (const method of recoveredByReconnect) void invalidate(method);
    void client.invalidateQueries(
      { predicate: (query) => query.state.status === 'error' },
      { cancelRefetch: false },
    );
  };
  let restState: RestState = 'unknown';
  const lastPaced = new Map<MethodName, number>();
  const pacedTimers = new Map<MethodName, ReturnType<typeof setTimeout>>();
  const readPaced = (method: MethodName) => {
    clearTimeout(pacedTimers.get(method));
    pacedTimers.delete(method);
    lastPaced.set(method, Date.now());
    void invalidate(method);
  };
  // Once its pace is over, a paced answer is read with the next change, as the answers that
  // change asks for are: its redraw then follows theirs instead of landing between two changes,
  // where it held the next change's answers (the P&L card's among them). While changes stream,
  // the next one comes within `changesEvery`; when none comes, it is read that much later.
  const invalidatePaced = (method: MethodName, every: number) => {
    const wait = (lastPaced.get(method) ?? -Infinity) + every - Date.now();
    if (wait <= 0) readPaced(method);
    else if (!pacedTimers.has(method)) {
      pacedTimers.set(
        method,
        setTimeout(() => readPaced(method), wait + changesEvery),
      );
    }
  };
  const waitingForFirst = new Set<ReturnType<typeof setTimeout>>();
  const stops = [
    // The main process names the answers a change makes stale (electron/api/changes.ts).
    api.on('data.changed', ({ kinds, queries = [] }) => {
      const atOnce = kinds.some((kind) => unpacedKinds.has(kind));
      const ask = (method: MethodName) => {
        const every = pacing[method];
        if (every === undefined || atOnce) void invalidate(method);
        else invalidatePaced(method, every);
      };
      // Only a first answer on screen is waited for.
      const first = queries.filter(
        (method) =>
          firstMethods.has(method) &&
          cache.findAll({ queryKey: [method], type: 'active' }).length > 0,
      );
      if (first.length === 0 || atOnce) {
        queries.forEach(ask);
        return;
      }
      // The others once the first are in, at the latest after `firstWait`.
      let asked = false;
      const askRest = () => {
        if (asked) return;
        asked = true;
        clearTimeout(timer);
        waitingForFirst.delete(timer);
        for (const method of queries) if (!first.includes(method)) ask(method);
      };
      const timer = setTimeout(askRest, firstWait);
      waitingForFirst.add(timer);
      void Promise.all(first.map(invalidate)).finally(askRest);
    }),
    api.on('connection.state', ({ state }) => {
      void invalidate('app.status');
      // The exchange is back: what failed while it was away, and what was served from the cache
      // meanwhile (the markets, the symbol rules behind every price's precision), is read again.
      if (state === 'live') recover();
    }),
    // REST answers again (the stream may still be down): the same, read over REST.
    cache.subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success') return;
      if (event.query.queryKey[0] !== 'app.status') return;
      const before = restState;
      restState = (event.query.state.data as AppStatus | undefined)?.rest.state ?? 'unknown';
      if (before === 'offline' && restState === 'ok') recover();
    }),
    cache.subscribe((event) => {
      if (event.type !== 'updated' || !readAgain.has(event.query.queryHash)) return;
      if (event.action.type !== 'success' && event.action.type !== 'error') return;
      readAgain.delete(event.query.queryHash);
      void client.invalidateQueries(
        { queryKey: event.query.queryKey, exact: true },
        { cancelRefetch: false },
      );
    }),
  ];
  return () => {
    stops.forEach((stop) => stop());
    pacedTimers.forEach((timer) => clearTimeout(timer));
    waitingForFirst.forEach((timer) => clearTimeout(timer));
  };
}

/** Installs the one change watcher of the page's query client. */
export function startDataLayer(): void {
  stopWatching ??= watchDataChanges(queryClient);
}

/** Starts a call before any component asks for it; the component then finds it in the cache. */
export function prefetchBridge<K extends MethodName>(method: K, input?: MethodInput<K>): void {
  void queryClient.prefetchQuery({
    queryKey: bridgeKey(method, input),
    queryFn: () => callBridge(method, input),
  });
}

/** What a screen reads of a query. */
export interface QueryState<T> {
  data: T | undefined;
  error: unknown;
  /** True while the first answer for this key is awaited; reloads behind shown data are quiet. */
  loading: boolean;
  reload: () => void;
}

/**
 * Reads only data, error and status, so a reload behind data on screen (fetchStatus) re-renders
 * nothing until its answer differs. A fetch with no data yet puts the query back to pending.
 */
function toState<T>(result: UseQueryResult<T>): QueryState<T> {
  const { refetch } = result;
  return {
    data: result.data,
    error: result.error ?? undefined,
    loading: result.isPending,
    reload: () => void refetch(),
  };
}

type BridgeQueryOptions<K extends MethodName, T> = Omit<
  UseQueryOptions<MethodResult<K>, Error, T>,
  'queryKey' | 'queryFn'
>;

/** A bridge call's answer, cached under its method and input. */
export function useBridgeQuery<K extends MethodName, T = MethodResult<K>>(
  method: K,
  input?: MethodInput<K>,
  options?: BridgeQueryOptions<K, T>,
): QueryState<T> {
  return toState(
    useQuery({
      queryKey: bridgeKey(method, input),
      queryFn: () => callBridge(method, input),
      ...options,
    }),
  );
}

/** What a screen reads of a change it asks the app to make (a mutation). */
export interface Action<I> {
  /**
   * Sends the change, unless one of this action is still on its way: a second click while the
   * first is pending sends nothing. Resolves once the answer is handled (the options' onSuccess
   * or onError has run); a failure is never thrown, it is `error`.
   */
  run: (input: I) => Promise<void>;
  /** True from the click until the answer. */
  pending: boolean;
  /** The input of the run on its way or last finished. */
  input: I | undefined;
  /** The last run's failure; undefined when it succeeded, is on its way, or none ran yet. */
  error: unknown;
  /** Forgets the last run's failure (the form changed, the dialog closed); not while pending. */
  reset: () => void;
}

export interface ActionOptions<I, R> {
  onSuccess?: (result: R, input: I) => unknown;
  onError?: (error: unknown, input: I) => unknown;
  /**
   * Each run is sent even while another is on its way: for changes that do not repeat each other
   * (two settings switched one after the other). `pending` and `error` are then the latest run's.
   */
  concurrent?: boolean;
}

/**
 * A change through TanStack Query's useMutation. What it makes stale is not listed here: the main
 * process names the answers each change feeds in its `data.changed` event (watchDataChanges).
 */
export function useAction<I = void, R = unknown>(
  change: (input: I) => Promise<R>,
  options: ActionOptions<I, R> = {},
): Action<I> {
  const mutation = useMutation<R, unknown, I>({
    mutationFn: change,
    onSuccess: (result, input) => options.onSuccess?.(result, input),
    onError: (error, input) => options.onError?.(error, input),
  });
  // The mutation's own pending state reaches the screen a render later; this holds from the click.
  const inFlight = useRef(0);
  const { mutateAsync } = mutation;
  const concurrent = options.concurrent ?? false;
  const run = useCallback(
    async (input: I) => {
      if (inFlight.current > 0 && !concurrent) return;
      inFlight.current += 1;
      try {
        await mutateAsync(input);
      } catch {
        // The failure is the mutation's `error`, shown by the screen.
      } finally {
        inFlight.current -= 1;
      }
    },
    [mutateAsync, concurrent],
  );
  const { reset: resetMutation } = mutation;
  // A run on its way keeps its state: its answer is still to be shown, and its button held.
  const reset = useCallback(() => {
    if (inFlight.current === 0) resetMutation();
  }, [resetMutation]);
  return {
    run,
    pending: mutation.isPending,
    input: mutation.variables,
    error: mutation.error ?? undefined,
    reset,
  };
}

/** A bridge method that changes something, as an Action. */
export function useBridgeAction<K extends MethodName>(
  method: K,
  options?: ActionOptions<MethodInput<K>, MethodResult<K>>,
): Action<MethodInput<K>> {
  return useAction((input: MethodInput<K>) => callBridge(method, input), options);
}

/**
 * The longest a chart's data waits for the page to settle (ms): a page whose answers never all
 * arrive at once (a busy market, a slow exchange) still redraws its charts this often.
 */
export const CHART_HOLD_MS = 1000;

/** True while no bridge answer is on its way; a change re-renders only when that flips. */
function useAnswersIn(): boolean {
  const client = useQueryClient();
  const subscribe = useCallback(
    (onChange: () => void) => client.getQueryCache().subscribe(onChange),
    [client],
  );
  return useSyncExternalStore(subscribe, () => client.isFetching() === 0);
}

/**
 * What a chart draws of `value`: the newest value once every answer the page is waiting for has
 * arrived (or after CHART_HOLD_MS at the latest), then in a render React may interrupt. A live
 * change asks for several answers, and redrawing the donut between them (recharts: 2-5 ms, and the
 * frame it paints) held the later ones behind it: the P&L card's, a third of its time from the
 * ledger's figures to the screen. The figures beside a chart are never held: only its drawing.
 */
export function useDrawnValue<T>(value: T, holdMs: number = CHART_HOLD_MS): T {
  const answersIn = useAnswersIn();
  const [drawn, setDrawn] = useState(value);
  const heldSince = useRef<number | null>(null);
  const due = !Object.is(drawn, value);
  // Taken in this render (React's pattern for state that follows a prop): no second pass.
  if (due && answersIn) setDrawn(() => value);
  useEffect(() => {
    if (!due || answersIn) {
      heldSince.current = null;
      return;
    }
    heldSince.current ??= Date.now();
    const timer = setTimeout(
      () => setDrawn(() => value),
      Math.max(0, heldSince.current + holdMs - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [due, answersIn, value, holdMs]);
  return useDeferredValue(drawn);
}
