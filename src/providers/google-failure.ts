// One failed Google call (gaxios error, token endpoint or API), read into one shape that the per-API and token
// verdicts share (its own module, so the token verdicts need not import the reader that calls them).
export interface GoogleFailure {
  /** HTTP status; undefined when no response arrived. */
  status?: number;
  /** google.rpc.Status `status` (e.g. INVALID_ARGUMENT), if any. */
  rpcStatus?: string;
  /** The provider's message, sanitised (no doc links, no API URLs). */
  message: string;
  /** `error.details[].reason` and legacy `error.errors[].reason`. */
  reasons: string[];
  /** `metadata` of the ErrorInfo detail (e.g. `service`, `consumer` for SERVICE_DISABLED), if any. */
  errorMetadata: Record<string, string>;
  /** Token endpoint error code (`invalid_grant`, `invalid_client`…) when the token call failed. */
  tokenError?: string;
  fromTokenEndpoint: boolean;
  retryAfterMs?: number;
  /** The provider's body, parsed when it was JSON (raw proxies pass it through). */
  body: unknown;
  timedOut: boolean;
  /** The failure came from the HTTP layer (gaxios), not from local code. */
  fromTransport: boolean;
}
