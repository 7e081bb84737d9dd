export { isLocalDevelopmentHost, normalizeBaseUrl } from './base-url'
export {
  createHttpClient,
  DEFAULT_TIMEOUT_MS,
  type FetchLike,
  type HttpClient,
  type HttpClientConfig,
  type HttpRequest,
  requireNonEmpty,
  resolveFetch,
} from './client'
export {
  errorFromInvalidBody,
  errorFromResponse,
  errorFromTransport,
  type HttpErrorCode,
  type HttpFailureInfo,
  maskSecrets,
} from './errors'
export { parseRetryAfter } from './retry-after'
