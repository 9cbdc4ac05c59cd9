/**
 * The one place a bridge call enters the main process, shared by the Electron IPC binding and
 * browser mode: the method must be in the contract, its input must pass the method's zod schema
 * (so handlers only ever see parsed, typed input), and whatever goes wrong comes back as a typed
 * BridgeErrorPayload. It never throws.
 */
import { z, type ZodError } from 'zod';
import type { BridgeHandlers, CallOutcome, MethodName } from '../../shared/contract';
import { methodSchema } from '../../shared/contract-schemas';
import { answeredWhileLocked } from '../../shared/lock';
import type { BridgeErrorPayload } from '../../shared/types';
import { toBridgeError } from './errors';

export interface DispatcherOptions {
  /**
   * Where internal failures are described for the log. The sink redacts (the app's logger does):
   * an exception's text may quote a signed URL.
   */
  log?: (line: string) => void;
  /**
   * The app lock: while it is locked only the lock's own methods are answered (shared/lock.ts
   * names them); every other call is refused before its input is even read.
   */
  lock?: LockGate;
}

export interface LockGate {
  isLocked(): boolean;
  /**
   * Whether this call must wait for the password to be given again (lock.confirm): the action in
   * words ("move funds") when it is sensitive and the password was last given too long ago.
   */
  confirmNeeded?(method: MethodName, input: unknown): Promise<string | null>;
}

export const LOCKED_MESSAGE = 'Spotfolio is locked. Unlock it with your password first.';

export type Dispatch = (method: unknown, rawInput: unknown) => Promise<CallOutcome<unknown>>;

type AnyHandler = (input: unknown) => Promise<unknown>;

/** A method name as it may be quoted back in an error: short, printable. */
function quoteName(method: unknown): string {
  const text = typeof method === 'string' ? method : String(typeof method);
  const printable = text.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 80 ? `${printable.slice(0, 80)}…` : printable;
}

/** What a value of zod's expected type is called in a message. */
function describeExpected(issue: z.core.$ZodRawIssue): string {
  const expected = 'expected' in issue ? String(issue.expected) : '';
  const schema = issue.inst;
  const integer =
    expected === 'int' ||
    (schema instanceof z.ZodNumber && schema.format !== null && schema.format.includes('int'));
  if (integer) return 'an integer';
  switch (expected) {
    case 'string':
      return 'text';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'object':
      return 'an object';
    case 'array':
      return 'a list';
    default:
      return expected ? `of type ${expected}` : 'of another type';
  }
}

function listOf(values: readonly unknown[]): string {
  return values
    .map((value) => (typeof value === 'string' ? `"${value}"` : String(value)))
    .join(', ');
}

/**
 * Messages for the bridge's input checks, naming the field: a field that is absent is "missing", a
 * field of the wrong type says which type it must be ("orderId must be an integer"), never the
 * other way round. Messages a schema gives itself (an amount's format, a refinement) win over
 * these; issues about the whole input are left to inputErrorPayload.
 */
export function bridgeInputErrorMap(issue: z.core.$ZodRawIssue): string | undefined {
  const field = (issue.path ?? []).map(String).join('.');
  if (!field) return undefined;
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? `Missing field "${field}"`
        : `${field} must be ${describeExpected(issue)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `${field} must be ${listOf(issue.values)}`
        : `${field} must be one of ${listOf(issue.values)}`;
    case 'invalid_union': {
      // A discriminated union (export.csv's kind) reports on the discriminator's path.
      const options = 'options' in issue && Array.isArray(issue.options) ? issue.options : null;
      if (!options) return undefined;
      const present =
        typeof issue.input === 'object' && issue.input !== null
          ? (issue.input as Record<string, unknown>)[String(issue.discriminator)]
          : undefined;
      return present === undefined
        ? `Missing field "${field}"`
        : `${field} must be one of ${listOf(options)}`;
    }
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const inclusive = issue.inclusive !== false;
      const bound = small
        ? inclusive
          ? 'at least'
          : 'greater than'
        : inclusive
          ? 'at most'
          : 'less than';
      const limit = small ? issue.minimum : issue.maximum;
      if (issue.origin === 'number' || issue.origin === 'int')
        return `${field} must be ${bound} ${String(limit)}`;
      if (issue.origin === 'string') return `${field} must be ${bound} ${String(limit)} characters`;
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The first zod issue as a payload naming the field at fault. Extra fields are reported by name
 * ("profile.extra"); the field messages come from bridgeInputErrorMap.
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
      // An own property of the schema table, never an inherited one ("__proto__", "toString").
      const schema = typeof method === 'string' ? methodSchema(method) : undefined;
      if (typeof method !== 'string' || !schema) {
        return {
          ok: false,
          error: { kind: 'invalid-input', message: `Unknown method ${quoteName(method)}` },
        };
      }
      if (options.lock?.isLocked() && !answeredWhileLocked(method)) {
        return { ok: false, error: { kind: 'locked', message: LOCKED_MESSAGE } };
      }
      const handler = Object.hasOwn(handlers, method)
        ? (handlers as unknown as Record<string, AnyHandler>)[method]
        : undefined;
      if (typeof handler !== 'function') {
        log(`Bridge method ${method} has no handler`);
        return { ok: false, error: toBridgeError(new Error(`No handler for ${method}`)) };
      }
      // A call without an argument means "no fields", which every all-optional schema accepts.
      const parsed = schema.safeParse(rawInput === undefined ? {} : rawInput, {
        error: bridgeInputErrorMap,
      });
      if (!parsed.success) return { ok: false, error: inputErrorPayload(parsed.error) };
      const action = await options.lock?.confirmNeeded?.(method as MethodName, parsed.data);
      if (action) {
        return {
          ok: false,
          error: { kind: 'confirm-password', message: `Enter your password again to ${action}.` },
        };
      }
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
