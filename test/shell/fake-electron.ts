/**
 * A small stand-in for the `electron` module (the binary is not installed here): each fake
 * records what the shell asks of it, so the tests can check every security rule was applied.
 */
type Handler = (...args: unknown[]) => unknown;

export class FakeEmitter {
  readonly handlers = new Map<string, Handler[]>();
  /** The wrapper once() registered for each handler, so removeListener finds it as Node's does. */
  private readonly onceWrappers = new Map<Handler, Handler>();
  on(name: string, handler: Handler) {
    this.handlers.set(name, [...(this.handlers.get(name) ?? []), handler]);
    return this;
  }
  /** Like Node's EventEmitter: the handler is removed before it runs, so it runs one time. */
  once(name: string, handler: Handler) {
    const wrapper: Handler = (...args) => {
      this.removeListener(name, handler);
      return handler(...args);
    };
    this.onceWrappers.set(handler, wrapper);
    return this.on(name, wrapper);
  }
  removeListener(name: string, handler: Handler) {
    const registered = this.onceWrappers.get(handler) ?? handler;
    this.onceWrappers.delete(handler);
    this.handlers.set(
      name,
      (this.handlers.get(name) ?? []).filter((h) => h !== registered),
    );
    return this;
  }
  emit(name: string, ...args: unknown[]) {
    // A copy: a once handler leaves the list while the others still have to run.
    for (const handler of [...(this.handlers.get(name) ?? [])]) handler(...args);
  }
}

export class FakeWebContents extends FakeEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  sent: unknown[][] = [];
  mainFrame = { url: 'app://spotfolio/index.html' };
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler;
  }
  send(...args: unknown[]) {
    this.sent.push(args);
  }
  isDestroyed() {
    return false;
  }
}

export class FakeBrowserWindow extends FakeEmitter {
  static created: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  loaded: string | null = null;
  constructor(readonly options: Record<string, unknown>) {
    super();
    FakeBrowserWindow.created.push(this);
  }
  loadURL(url: string) {
    this.loaded = url;
    return Promise.resolve();
  }
  shown = 0;
  focused = 0;
  show() {
    this.shown++;
  }
  focus() {
    this.focused++;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  isDestroyed() {
    return false;
  }
  static getAllWindows() {
    return FakeBrowserWindow.created;
  }
}

export function fakeSession() {
  const recorded = {
    headersListener: null as
      | null
      | ((
          details: { responseHeaders?: Record<string, string[]> },
          callback: (response: { responseHeaders: Record<string, string[]> }) => void,
        ) => void),
    permissionRequest: null as
      | null
      | ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void),
    permissionCheck: null as null | ((...args: unknown[]) => boolean),
  };
  const session = {
    webRequest: {
      onHeadersReceived(listener: typeof recorded.headersListener) {
        recorded.headersListener = listener;
      },
    },
    setPermissionRequestHandler(handler: typeof recorded.permissionRequest) {
      recorded.permissionRequest = handler;
    },
    setPermissionCheckHandler(handler: typeof recorded.permissionCheck) {
      recorded.permissionCheck = handler;
    },
  };
  return { session, recorded };
}

export const shellCalls: string[] = [];
export const ipcMainHandlers = new Map<string, Handler>();
export const exposed = new Map<string, unknown>();
export const ipcRendererInvocations: unknown[][] = [];
export const ipcRenderer = Object.assign(new FakeEmitter(), {
  invoke: async (...args: unknown[]) => {
    ipcRendererInvocations.push(args);
    return ipcRendererAnswer(args);
  },
});
export let ipcRendererAnswer: (args: unknown[]) => unknown = () => ({ ok: true, value: null });
export function answerIpc(answer: (args: unknown[]) => unknown) {
  ipcRendererAnswer = answer;
}

/** The `app` object, with a lock answer and a ready promise the test controls. */
export const fakeApp = Object.assign(new FakeEmitter(), {
  lockGranted: true,
  quitCalls: 0,
  name: '',
  isPackaged: false,
  ready: null as null | (() => void),
  setName(name: string) {
    this.name = name;
  },
  requestSingleInstanceLock() {
    return this.lockGranted;
  },
  quit() {
    this.quitCalls++;
  },
  exit() {},
  getPath(name: string) {
    return `/fake/${name}/${this.name}`;
  },
  getAppPath() {
    return '/fake/app';
  },
  whenReady() {
    return new Promise<void>((resolve) => (fakeApp.ready = resolve));
  },
});

export const trays: { tooltip: string; destroyed: boolean; menu: unknown }[] = [];

/** powerMonitor: a test emits 'lock-screen' or 'suspend' on it as the OS would. */
export const powerMonitor = new FakeEmitter();

/** Global shortcuts registered, by accelerator; those in `taken` belong to another program. */
export const globalShortcuts = new Map<string, () => void>();
export const globalShortcut = {
  taken: new Set<string>(),
  register(accelerator: string, callback: () => void) {
    if (this.taken.has(accelerator) || globalShortcuts.has(accelerator)) return false;
    globalShortcuts.set(accelerator, callback);
    return true;
  },
  unregister(accelerator: string) {
    globalShortcuts.delete(accelerator);
  },
};

export const electron = {
  app: fakeApp,
  session: { defaultSession: fakeSession().session },
  Menu: {
    buildFromTemplate: (template: unknown) => template,
    setApplicationMenu() {},
  },
  Tray: class {
    readonly record = { tooltip: '', destroyed: false, menu: null as unknown };
    constructor() {
      trays.push(this.record);
    }
    setToolTip(text: string) {
      this.record.tooltip = text;
    }
    /** Menu.buildFromTemplate above returns the template itself, so this is the template. */
    setContextMenu(menu: unknown) {
      this.record.menu = menu;
    }
    on() {}
    destroy() {
      this.record.destroyed = true;
    }
  },
  nativeImage: { createFromPath: (path: string) => ({ path }) },
  Notification: class {
    static isSupported() {
      return false;
    }
  },
  BrowserWindow: FakeBrowserWindow,
  shell: {
    openExternal: async (url: string) => {
      shellCalls.push(url);
    },
  },
  ipcMain: {
    handle(channel: string, handler: Handler) {
      if (ipcMainHandlers.has(channel)) throw new Error(`Second handler for ${channel}`);
      ipcMainHandlers.set(channel, handler);
    },
    removeHandler(channel: string) {
      ipcMainHandlers.delete(channel);
    },
  },
  ipcRenderer,
  contextBridge: {
    exposeInMainWorld(key: string, value: unknown) {
      exposed.set(key, value);
    },
  },
  protocol: { registerSchemesAsPrivileged() {}, handle() {} },
  powerMonitor,
  globalShortcut,
};
