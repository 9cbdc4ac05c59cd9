/** The exchange client's public API: REST client, stream client, errors and wire types. */
export {
  ExchangeClient,
  withdrawWindows,
  type ExchangeClientOptions,
  type NewOrder,
  type WithdrawWindowReport,
} from './client';
export { ExchangeError, type ExchangeErrorKind } from './errors';
export { connectionRefused, networkCause } from './rest';
export type { InputOf } from './inputs';
export { ENDPOINT_LIMITS, ExchangeLimiters, RateLimiter, type EndpointName } from './limits';
export { sign } from './sign';
export {
  StreamClient,
  PRIVATE_STREAMS,
  type StreamClientOptions,
  type StreamTiming,
} from './stream';
export { isLoopbackHost } from './urls';
export * from './wire';
export { parseWireFast } from './wire-fast';
