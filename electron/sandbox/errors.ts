/** An error the sandbox answers with: {code, message} as the body, httpStatus as the status. */
export class SandboxError extends Error {
  readonly code: number;
  readonly httpStatus: number;
  /** Seconds for the Retry-After header (429 and 418 only). */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: number, message: string, httpStatus: number, retryAfterSeconds?: number) {
    super(message);
    this.name = 'SandboxError';
    this.code = code;
    this.httpStatus = httpStatus;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The error table of docs/exchange-notes.md, one constructor per row. */
export const errors = {
  missing: (param: string) => new SandboxError(1999, `${param} is missing`, 400),
  invalid: (param: string, why?: string) =>
    new SandboxError(1999, `${param} does not have a valid value${why ? ` (${why})` : ''}`, 400),
  badRequest: (message: string) => new SandboxError(1999, message, 400),
  invalidSymbol: () => new SandboxError(-1121, 'Invalid symbol.', 400),
  apiKeyMissing: () => new SandboxError(2112, 'API key is missing', 401),
  apiKeyInvalid: () => new SandboxError(2111, 'API key is invalid', 401),
  signatureMissing: () => new SandboxError(2115, 'Signature not found.', 401),
  signatureIncorrect: () => new SandboxError(2005, 'Signature is incorrect.', 401),
  recvWindowRange: () => new SandboxError(2113, 'RecvWindow must be in range 1..60000', 400),
  outOfWindow: () => new SandboxError(2098, 'Request out of receiving window.', 400),
  permissionDenied: () => new SandboxError(2078, 'Permission denied.', 403),
  notEnoughForOrder: (asset: string) =>
    new SandboxError(2002, `Not enough ${asset.toUpperCase()} balance to execute this order`, 400),
  notEnoughForTransfer: (asset: string) =>
    new SandboxError(2002, `Not enough ${asset.toUpperCase()} balance for this transfer`, 400),
  orderDoesNotExist: () => new SandboxError(2004, 'Order does not exist.', 400),
  duplicateClientOrderId: () => new SandboxError(2010, 'Duplicate clientOrderId.', 400),
  stopPriceNotFound: () => new SandboxError(94001, 'Stop price not found.', 400),
  tooManyRequests: (retryAfterSeconds: number) =>
    new SandboxError(2136, 'Too many api request', 429, retryAfterSeconds),
  ipBanned: (untilMs: number, retryAfterSeconds: number) =>
    new SandboxError(2137, `IP banned until ${untilMs}`, 418, retryAfterSeconds),
  notFound: () => new SandboxError(404, 'Not found', 404),
  internal: (status = 500) => new SandboxError(500, 'Internal error', status),
  payloadTooLarge: (maxBytes: number) =>
    new SandboxError(1999, `Request body is larger than ${maxBytes} bytes`, 400),
};
