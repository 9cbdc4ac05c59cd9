/**
 * What a component test of the renderer needs: a window.spotfolio that answers as the main process
 * does at its door (the real dispatcher: the contract's method names and the bridge's zod input
 * checks, with their messages naming the field), behind which each test says what the app
 * answers; and the providers the screens read (the query client, the app context). No exchange is
 * involved: what a form sends is read off the calls the bridge received.
 */
import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import { createDispatcher } from '../../../electron/api/dispatch';
import { AppError } from '../../../electron/api/errors';
import { DEFAULT_SETTINGS } from '../../../electron/settings/stored';
import { createBridge } from '../../../shared/bridge-client';
import {
  methodNames,
  type BridgeHandlers,
  type MethodInput,
  type MethodName,
  type MethodResult,
} from '../../../shared/contract';
import type { ProfileView, Settings, SymbolView } from '../../../shared/types';
import { AppContext, type AppContextValue } from '../../../renderer/src/context';
import { createQueryClient } from '../../../renderer/src/lib/query';

export { AppError };

type Answer<K extends MethodName> = (
  input: MethodInput<K>,
) => MethodResult<K> | Promise<MethodResult<K>>;

export interface FakeApp {
  /** Every call that passed the bridge's input check, with the input as the handler got it. */
  calls: { method: MethodName; input: unknown }[];
  /** The inputs the handler of `method` received, in order. */
  inputsOf<K extends MethodName>(method: K): MethodInput<K>[];
  /** What the app answers to `method` (a thrown AppError is the error the page receives). */
  answer<K extends MethodName>(method: K, answer: Answer<K>): void;
}

/**
 * Installs window.spotfolio for one test; the answers start empty (a call without one fails).
 * After each test the rendering is unmounted and window.spotfolio removed (support/setup.ts).
 */
export function installFakeApp(): FakeApp {
  const answers = new Map<string, (input: unknown) => unknown>();
  const calls: FakeApp['calls'] = [];
  const handler = (method: MethodName) => async (input: unknown) => {
    calls.push({ method, input });
    const answer = answers.get(method);
    if (!answer) throw new Error(`The test gave no answer for ${method}`);
    return answer(input);
  };
  const handlers = Object.fromEntries(
    methodNames.map((method) => [method, handler(method)]),
  ) as unknown as BridgeHandlers;
  const dispatch = createDispatcher(handlers);
  const bridge = createBridge({
    call: (method, input) => dispatch(method, input),
    subscribe: () => () => undefined,
  });
  Object.assign(window, { spotfolio: bridge });
  return {
    calls,
    inputsOf: <K extends MethodName>(method: K) =>
      calls.filter((call) => call.method === method).map((call) => call.input as MethodInput<K>),
    answer: (method, answer) => answers.set(method, answer as (input: unknown) => unknown),
  };
}

/** The app's default settings, in the light theme. */
export const SETTINGS: Settings = { ...DEFAULT_SETTINGS, theme: 'light' };

export function profile(overrides: Partial<ProfileView> = {}): ProfileView {
  return {
    id: 'p1',
    name: 'Main',
    baseUrl: 'http://127.0.0.1:1',
    streamUrl: 'ws://127.0.0.1:1/ws',
    apiKeyMasked: 'AbCd…wxyz',
    canTrade: true,
    canWithdraw: false,
    canTransfer: true,
    isDemo: false,
    active: true,
    createdAt: 0,
    ...overrides,
  };
}

/** The app shell's context as a screen reads it, with `toasts` collecting what it shows. */
export function appContext(overrides: Partial<AppContextValue> = {}) {
  const toasts: Parameters<AppContextValue['toast']>[0][] = [];
  const active = overrides.activeProfile === undefined ? profile() : overrides.activeProfile;
  const value: AppContextValue = {
    status: { rest: { state: 'ok', since: 0 } } as AppContextValue['status'],
    settings: SETTINGS,
    profiles: active ? [active] : [],
    activeProfile: active,
    connection: { state: 'live', since: 0 },
    symbols: [] as SymbolView[],
    precisionOf: () => 8,
    updateSettings: async () => undefined,
    reloadProfiles: async () => undefined,
    navigate: () => undefined,
    toast: (toast) => void toasts.push(toast),
    ...overrides,
  };
  return { value, toasts };
}

/** Renders `ui` inside a fresh query client and the given app context. */
export function renderInApp(ui: ReactNode, context: AppContextValue): RenderResult {
  return render(renderInAppTree(ui, context));
}

const queryClients = new WeakMap<AppContextValue, ReturnType<typeof createQueryClient>>();

/** The tree renderInApp renders, for a rerender with new props (one query client a context). */
export function renderInAppTree(ui: ReactNode, context: AppContextValue): ReactNode {
  let client = queryClients.get(context);
  if (!client) queryClients.set(context, (client = createQueryClient()));
  return (
    <QueryClientProvider client={client}>
      <AppContext.Provider value={context}>{ui}</AppContext.Provider>
    </QueryClientProvider>
  );
}

/** An answer held back until the test lets it go: what the page shows while a call is pending. */
export function gate(): { passed: Promise<void>; open: () => void } {
  let open!: () => void;
  const passed = new Promise<void>((resolve) => (open = resolve));
  return { passed, open };
}
