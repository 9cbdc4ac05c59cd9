/**
 * The ipcMain side of the bridge: one handler per contract method (channel derived from the
 * method name), each call checked for its sender frame (the app's own page, main frame only)
 * before dispatch validates and runs it. Events go to the app's windows on one channel.
 */
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import {
  ipcChannel,
  ipcEventChannel,
  methodNames,
  type CallOutcome,
  type EventName,
  type EventPayloads,
} from '../../shared/contract';
import type { Dispatch } from '../api/dispatch';

export interface SenderFrame {
  url: string;
  parent: unknown;
}

/** Only the app's own page, in its top frame, may call: never an iframe or a foreign page. */
export function isTrustedSender(
  frame: SenderFrame | null | undefined,
  isAppUrl: (url: string) => boolean,
): boolean {
  if (!frame) return false;
  if (frame.parent !== null) return false;
  return isAppUrl(frame.url);
}

export const untrustedSenderOutcome: CallOutcome<never> = {
  ok: false,
  error: { kind: 'permission', message: 'This page may not use the Spotfolio bridge.' },
};

export interface IpcBindingOptions {
  dispatch: Dispatch;
  isAppUrl(url: string): boolean;
  log?: (line: string) => void;
}

export interface IpcBinding {
  /** Sends an event to every window whose page is the app's own. */
  send<E extends EventName>(targets: WebContents[], event: E, payload: EventPayloads[E]): void;
  dispose(): void;
}

export function bindIpc(options: IpcBindingOptions): IpcBinding {
  const log = options.log ?? (() => undefined);
  for (const name of methodNames) {
    ipcMain.handle(ipcChannel(name), (event: IpcMainInvokeEvent, input: unknown) => {
      if (!isTrustedSender(event.senderFrame, options.isAppUrl)) {
        log(`Refused ${name} from ${event.senderFrame?.url ?? 'a gone frame'}`);
        return untrustedSenderOutcome;
      }
      return options.dispatch(name, input);
    });
  }
  return {
    send(targets, event, payload) {
      for (const contents of targets) {
        if (contents.isDestroyed()) continue;
        if (!options.isAppUrl(contents.mainFrame.url)) continue;
        contents.send(ipcEventChannel, event, payload);
      }
    },
    dispose() {
      for (const name of methodNames) ipcMain.removeHandler(ipcChannel(name));
    },
  };
}
