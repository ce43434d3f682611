// The provider-report cache contract shared by the in-process, Redis and layered stores.

/**
 * One cached provider answer. Times are epoch milliseconds:
 * fresh until `freshUntil`; served stale while revalidating until `revalidateUntil`;
 * kept (for stale-if-error) until `staleUntil`, after which it is gone.
 */
export interface CacheEntry {
  /** JSON-serialisable; the Redis store round-trips it through JSON. */
  value: unknown;
  storedAt: number;
  freshUntil: number;
  revalidateUntil: number;
  staleUntil: number;
  /** Data source identity, e.g. `analytics:123456`; callers are only served entries of sources they may read. */
  source: string;
  /** Approximate size; filled in by the stores when absent. */
  bytes?: number;
}

export interface StoreHealth {
  status: 'ok' | 'degraded';
  detail?: string;
}

export interface CacheStore {
  get(key: string): Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): Promise<void>;
  delete(key: string): Promise<void>;
  health(): StoreHealth;
}

/** Estimated heap size of an entry plus its key: what the byte bound of the in-process store counts. */
export function entryBytes(key: string, entry: CacheEntry): number {
  return entry.bytes ?? entryBytesOf(key, Buffer.byteLength(JSON.stringify(entry.value) ?? ''));
}

/** `entryBytes` from the byte length of the value's JSON, known beforehand (cachedFetch counts it in slices). */
export function entryBytesOf(key: string, jsonBytes: number): number {
  return jsonBytes * HEAP_BYTES_PER_JSON_BYTE + key.length * 2 + ENTRY_OVERHEAD_BYTES;
}

// A parsed report takes more heap than its JSON: objects, property slots and boxed numbers. Measured on GA-shaped
// reports of 1–365 rows (node 24): 2.4–2.7× the JSON bytes; counting 3× keeps the byte bound a bound on memory.
const HEAP_BYTES_PER_JSON_BYTE = 3;

// Bookkeeping fields and Map/LRU slots cost memory too; a fixed allowance keeps tiny entries from looking free.
const ENTRY_OVERHEAD_BYTES = 128;
