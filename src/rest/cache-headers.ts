// Cache-Status (RFC 9211) and Age from a response envelope's meta.cache / meta.fetchedAt.
const CACHE_STATUS: Record<string, string> = {
  hit: 'siteline; hit',
  stale: 'siteline; hit; detail=stale',
  miss: 'siteline; fwd=miss; stored',
  refresh: 'siteline; fwd=request; stored',
};

export function cacheHeadersOf(body: unknown, now: Date): Record<string, string> {
  const meta = (body as { meta?: { cache?: string; fetchedAt?: string } } | null)?.meta;
  const status = meta?.cache ? CACHE_STATUS[meta.cache] : undefined;
  if (!status) return {};
  const fetchedAt = meta?.fetchedAt ? Date.parse(meta.fetchedAt) : Number.NaN;
  const age = Number.isNaN(fetchedAt) ? 0 : Math.max(0, Math.floor((now.getTime() - fetchedAt) / 1000));
  return { 'cache-status': status, age: String(age) };
}
