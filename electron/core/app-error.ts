/**
 * An error raised by the app itself, with a message written for the user. It sits in core/ so any
 * service can refuse with words the renderer shows as they are (api/errors.ts maps it).
 */
import type { ErrorKind } from '../../shared/types';

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly field?: string;

  constructor(kind: ErrorKind, message: string, field?: string) {
    super(message);
    this.name = 'AppError';
    this.kind = kind;
    if (field !== undefined) this.field = field;
  }
}
