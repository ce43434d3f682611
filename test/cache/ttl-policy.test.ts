import { describe, expect, it } from 'vitest';
import { freshnessFor, toEntryTimes, type FreshnessInput } from '../../src/cache/ttl-policy.ts';

const S = 1_000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const today = '2026-11-22';

describe('freshnessFor', () => {
  it.each<[string, FreshnessInput, number]>([
    ['realtime', { kind: 'realtime' }, 30 * S],
    ['period touching today', { kind: 'report', endDate: today, today }, 5 * M],
    ['period without end date', { kind: 'report' }, 5 * M],
    ['period ending yesterday', { kind: 'report', endDate: '2026-11-21', today }, H],
    ['period ending 2 days ago', { kind: 'report', endDate: '2026-11-20', today }, 6 * H],
    ['period ending 3 days ago', { kind: 'report', endDate: '2026-11-19', today }, 6 * H],
    ['period ending 4 days ago', { kind: 'report', endDate: '2026-11-18', today }, D],
    ['period ending across a month boundary', { kind: 'report', endDate: '2026-10-31', today: '2026-11-01' }, H],
    ['metadata', { kind: 'metadata' }, H],
    ['whole-history dumps', { kind: 'history' }, 6 * H],
  ])('%s', (_name, input, freshMs) => {
    expect(freshnessFor(input).freshMs).toBe(freshMs);
  });

  it('takes today from the clock (UTC) when not given', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(freshnessFor({ kind: 'report', endDate: '2026-11-21' }, now).freshMs).toBe(H);
  });

  it('never serves realtime stale while revalidating, but keeps it briefly for upstream failures', () => {
    const policy = freshnessFor({ kind: 'realtime' });
    expect(policy.revalidateMs).toBe(0);
    expect(policy.staleIfErrorMs).toBe(12 * M);
  });

  it('allows stale-while-revalidate for one more TTL and stale-if-error for 24 TTLs, at most 7 days', () => {
    expect(freshnessFor({ kind: 'report', endDate: '2026-11-21', today })).toEqual({ freshMs: H, revalidateMs: H, staleIfErrorMs: 24 * H });
    expect(freshnessFor({ kind: 'report', endDate: '2026-01-01', today }).staleIfErrorMs).toBe(7 * D);
  });

  it('rejects malformed dates instead of guessing', () => {
    expect(() => freshnessFor({ kind: 'report', endDate: '22/11/2026', today })).toThrow(RangeError);
  });
});

describe('toEntryTimes', () => {
  it('lays the windows end to end from the load time', () => {
    expect(toEntryTimes({ freshMs: 10, revalidateMs: 20, staleIfErrorMs: 100 }, 1_000)).toEqual({
      storedAt: 1_000,
      freshUntil: 1_010,
      revalidateUntil: 1_030,
      staleUntil: 1_110,
    });
  });
});
