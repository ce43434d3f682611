// Where the provider clients connect: production roots, or the sandbox (one root, or an in-process fetch handler).

export interface ProviderEndpoints {
  /** GA4 Data API root, with a trailing slash. */
  analyticsRoot: string;
  /** Search Console API root, with a trailing slash. */
  searchConsoleRoot: string;
  /** Bing Webmaster API root, with a trailing slash. */
  bingRoot: string;
  /** Google OAuth token endpoint (refresh-token grant and service-account JWT grant). */
  tokenUrl: string;
  /** Replaces the global fetch for every provider and token call (in-process sandbox, tests). */
  fetch?: typeof fetch;
}

export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

export const PRODUCTION_ENDPOINTS: Readonly<ProviderEndpoints> = Object.freeze({
  analyticsRoot: 'https://analyticsdata.googleapis.com/',
  searchConsoleRoot: 'https://searchconsole.googleapis.com/',
  bingRoot: 'https://ssl.bing.com/',
  tokenUrl: GOOGLE_TOKEN_URL,
});

/**
 * Everything served at one root, as the sandbox does (`siteline sandbox`, docker-compose). The Google clients
 * drop any path prefix of a global `rootUrl`, so the base URL must be an origin.
 */
export function sandboxEndpoints(baseUrl: string): ProviderEndpoints {
  const url = new URL(baseUrl);
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    throw new Error(`Sandbox base URL must be an origin without a path, got ${url.origin}${url.pathname}`);
  }
  const root = `${url.origin}/`;
  return { analyticsRoot: root, searchConsoleRoot: root, bingRoot: root, tokenUrl: `${root}token` };
}

/**
 * An in-process sandbox: requests never touch the network. The `.invalid` host (RFC 2606) guarantees that a
 * request escaping the injected fetch fails instead of reaching a real provider.
 */
export function inProcessEndpoints(handler: (request: Request) => Promise<Response>): ProviderEndpoints {
  const fetchImpl = ((input: RequestInfo | URL, init?: RequestInit) =>
    handler(new Request(input, init))) as typeof fetch;
  return { ...sandboxEndpoints('http://sandbox.invalid/'), fetch: fetchImpl };
}
