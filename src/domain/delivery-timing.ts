// When a delivery job runs: spread over a window so a thousand reports due at 08:00 do not spend the provider quota
// in one burst, and retried with exponential backoff. Pure and deterministic, so every instance computes the same.
import { createHash } from 'node:crypto';

/** Reports due at one hour start within this window after it. */
export const SPREAD_WINDOW_MS = 45 * 60_000;
export const RETRY_BASE_MS = 30_000;
export const RETRY_CAP_MS = 60 * 60_000;
/** Attempts before a job is dead-lettered. */
export const MAX_ATTEMPTS = 5;

/** A stable offset in [0, window) from the job's idempotency key: the same job always lands at the same minute. */
export function spreadOffsetMs(idempotencyKey: string, windowMs: number = SPREAD_WINDOW_MS): number {
  if (windowMs <= 0) return 0;
  const head = createHash('sha256').update(idempotencyKey).digest().readUInt32BE(0);
  return Math.floor((head / 0x1_0000_0000) * windowMs);
}

/** Delay before attempt `attempt + 1` after `attempt` failed (1-based): 30 s, 1 min, 2 min, … capped at an hour. */
export function retryDelayMs(attempt: number): number {
  return Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1));
}

/** The job key that makes a delivery happen once per subscription and period, whoever runs it. */
export function idempotencyKeyOf(subscriptionId: string, periodKey: string): string {
  return `${subscriptionId}:${periodKey}`;
}
