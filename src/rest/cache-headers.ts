// Cache-Status (RFC 9211) and Age from a response envelope's meta.cache / meta.fetchedAt.
const CACHE_STATUS: Record<string, string> = {
  hit: 'siteline; hit',
  stale: 'siteline; hit; detail=stale',
  miss: 'siteline; fwd=miss; stored',
  refresh: 'siteline; fwd=request; stored',
};

/** The header fields of an answer served as `cache` (a meta.cache word), its data fetched at `fetchedAt` (epoch ms; NaN: age 0). */
export function cacheHeaders(cache: string | undefined, fetchedAt: number, now: Date): Record<string, string> {
  const status = cache ? CACHE_STATUS[cache] : undefined;
  if (!status) return {};
  const age = Number.isNaN(fetchedAt) ? 0 : Math.max(0, Math.floor((now.getTime() - fetchedAt) / 1000));
  return { 'cache-status': status, age: String(age) };
}

/** The header fields of a freshly built answer, from its envelope's meta. */
export function cacheHeadersOf(body: unknown, now: Date): Record<string, string> {
  const meta = (body as { meta?: { cache?: string; fetchedAt?: string } } | null)?.meta;
  return cacheHeaders(meta?.cache, meta?.fetchedAt ? Date.parse(meta.fetchedAt) : Number.NaN, now);
}
