// Common request parameters: limit, offset, order, force and sp, each parsed strictly with quoted errors.

import { invalidParameter } from '../errors/app-error.ts';
import { didYouMean } from './close-matches.ts';
import { quoteInput } from './quote.ts';
import type { SearchSource } from './sources.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;
/** The provider never returns rows beyond 250,000; a larger offset can only be a mistake. */
export const MAX_OFFSET = 250_000;

const DIGITS = /^\d+$/;

function parseWholeNumber(param: string, raw: string, min: number, max: number): number {
  const value = DIGITS.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw invalidParameter(param, `Invalid ${param} ${quoteInput(raw)}: expected a whole number from ${min} to ${max}.`);
  }
  return value;
}

/** `limit`: 1–1000, default 50. */
export function parseLimit(raw: string | undefined): number {
  return raw === undefined || raw === '' ? DEFAULT_LIMIT : parseWholeNumber('limit', raw, 1, MAX_LIMIT);
}

/** `offset`: 0–250000, default 0. */
export function parseOffset(raw: string | undefined): number {
  return raw === undefined || raw === '' ? 0 : parseWholeNumber('offset', raw, 0, MAX_OFFSET);
}

export type SortDirection = 'asc' | 'desc';

export interface Order {
  readonly metric: string;
  readonly direction: SortDirection;
}

/**
 * `order`: a metric name, descending with a `-` prefix (`-sessions`), ascending without. Default: the
 * first metric, descending. `allowedMetrics` are the metrics of the request.
 */
export function parseOrder(raw: string | undefined, allowedMetrics: readonly string[]): Order {
  if (raw === undefined || raw === '') {
    const first = allowedMetrics[0];
    if (first === undefined) throw new Error('parseOrder: no metrics to order by');
    return { metric: first, direction: 'desc' };
  }
  const descending = raw.startsWith('-');
  const metric = descending ? raw.slice(1) : raw;
  if (!allowedMetrics.includes(metric)) {
    throw invalidParameter(
      'order',
      `Invalid order ${quoteInput(raw)}: ${quoteInput(metric)} is not one of the requested metrics (${allowedMetrics.join(', ')}); prefix with "-" for descending.${didYouMean(metric, allowedMetrics)}`,
    );
  }
  return { metric, direction: descending ? 'desc' : 'asc' };
}

/** `order` written back (`-sessions`). */
export function formatOrder(order: Order): string {
  return order.direction === 'desc' ? `-${order.metric}` : order.metric;
}

/** `force`: `1` bypasses the cache; `0` or absent does not; anything else is a 400. */
export function parseForce(raw: string | undefined): boolean {
  if (raw === undefined || raw === '0') return false;
  if (raw === '1') return true;
  throw invalidParameter('force', `Invalid force ${quoteInput(raw)}: expected 1 (bypass the cache) or 0.`);
}

export type SearchProviderChoice = 'all' | SearchSource;

const SP_WORDS: ReadonlyMap<string, SearchProviderChoice> = new Map<string, SearchProviderChoice>([
  ['all', 'all'],
  ['engine1', 'engine1'],
  ['engine2', 'engine2'],
  ['google', 'engine1'],
  ['bing', 'engine2'],
]);

/** `sp`: `all` (default), `engine1`, `engine2`; aliases `google` and `bing`. Returns the canonical word. */
export function parseSp(raw: string | undefined): SearchProviderChoice {
  if (raw === undefined || raw === '') return 'all';
  const choice = SP_WORDS.get(raw);
  if (choice !== undefined) return choice;
  throw invalidParameter(
    'sp',
    `Invalid sp ${quoteInput(raw)}: expected all, engine1 or engine2 (aliases: google, bing).${didYouMean(raw, SP_WORDS.keys())}`,
  );
}

/** The engines an `sp` choice asks for. */
export function searchSourcesOf(choice: SearchProviderChoice): readonly SearchSource[] {
  return choice === 'all' ? ['engine1', 'engine2'] : [choice];
}
