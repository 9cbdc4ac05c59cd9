/** The exchange client's public API: REST client, stream client, errors and wire types. */
export {
  ExchangeClient,
  withdrawWindows,
  type ExchangeClientOptions,
  type NewOrder,
} from './client';
export { ExchangeError, type ExchangeErrorKind } from './errors';
export { ENDPOINT_LIMITS, RateLimiter, type EndpointName } from './limits';
export { sign } from './sign';
export {
  StreamClient,
  PRIVATE_STREAMS,
  type StreamClientOptions,
  type StreamState,
  type StreamTiming,
} from './stream';
export * from './wire';
