/**
 * The one place a bridge call enters the main process, shared by the Electron IPC binding and
 * browser mode: the method must be in the contract, its input must pass the method's zod schema
 * (so handlers only ever see parsed, typed input), and whatever goes wrong comes back as a typed
 * BridgeErrorPayload. It never throws.
 */
import type { ZodError } from 'zod';
import { methodSpec, type BridgeHandlers, type CallOutcome } from '../../shared/contract';
import type { BridgeErrorPayload } from '../../shared/types';
import { toBridgeError } from './errors';

export interface DispatcherOptions {
  /**
   * Where internal failures are described for the log. The sink redacts (the app's logger does):
   * an exception's text may quote a signed URL.
   */
  log?: (line: string) => void;
}

export type Dispatch = (method: unknown, rawInput: unknown) => Promise<CallOutcome<unknown>>;

type AnyHandler = (input: unknown) => Promise<unknown>;

/** A method name as it may be quoted back in an error: short, printable. */
function quoteName(method: unknown): string {
  const text = typeof method === 'string' ? method : String(typeof method);
  const printable = text.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 80 ? `${printable.slice(0, 80)}…` : printable;
}

/**
 * The first zod issue as a payload naming the field at fault. Extra fields are reported by name
 * ("profile.extra") and a missing field says so, rather than zod's generic type message.
 */
export function inputErrorPayload(error: ZodError): BridgeErrorPayload {
  const issue = error.issues[0];
  if (!issue) return { kind: 'invalid-input', message: 'The input is not valid' };
  const path = issue.path.map(String);
  let message = issue.message;
  if (issue.code === 'unrecognized_keys' && issue.keys.length > 0) {
    path.push(String(issue.keys[0]));
    message =
      issue.keys.length === 1
        ? `Unexpected field "${issue.keys[0]}"`
        : `Unexpected fields ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
  } else if (issue.code === 'invalid_type' && issue.input === undefined && path.length > 0) {
    message = `Missing field "${path.join('.')}"`;
  } else if (issue.code === 'invalid_type' && path.length === 0) {
    message = `The input must be ${issue.expected === 'object' ? 'an object' : issue.expected}`;
  }
  const payload: BridgeErrorPayload = { kind: 'invalid-input', message };
  if (path.length > 0) payload.field = path.join('.');
  return payload;
}

export function createDispatcher(handlers: BridgeHandlers, options: DispatcherOptions = {}) {
  const log = options.log ?? (() => undefined);

  const dispatch: Dispatch = async (method, rawInput) => {
    try {
      const spec = typeof method === 'string' ? methodSpec(method) : undefined;
      if (typeof method !== 'string' || !spec) {
        return {
          ok: false,
          error: { kind: 'invalid-input', message: `Unknown method ${quoteName(method)}` },
        };
      }
      const handler = Object.hasOwn(handlers, method)
        ? (handlers as unknown as Record<string, AnyHandler>)[method]
        : undefined;
      if (typeof handler !== 'function') {
        log(`Bridge method ${method} has no handler`);
        return { ok: false, error: toBridgeError(new Error(`No handler for ${method}`)) };
      }
      // A call without an argument means "no fields", which every all-optional schema accepts.
      const parsed = spec.input.safeParse(rawInput === undefined ? {} : rawInput);
      if (!parsed.success) return { ok: false, error: inputErrorPayload(parsed.error) };
      const value = await handler(parsed.data);
      return { ok: true, value };
    } catch (error) {
      const payload = toBridgeError(error);
      if (payload.kind === 'internal') {
        const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
        log(`Bridge call ${quoteName(method)} failed: ${detail}`);
      }
      return { ok: false, error: payload };
    }
  };
  return dispatch;
}
