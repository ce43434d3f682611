// Running a relation as a fast-check property: one fixed seed for the whole suite (printed, and overridable with
// RELATIONS_SEED to replay or explore), run counts scaled by RELATIONS_RUNS (e.g. 5 for a deeper local run), and
// failures that name the relation, the request and the surface, so a shrunk counterexample reads as a bug report.
import fc from 'fast-check';
import { knownViolationOf } from './known-violations.ts';
import type { ApiRequest } from './request.ts';

const DEFAULT_SEED = 270_027;

export const SEED = process.env.RELATIONS_SEED ? Number(process.env.RELATIONS_SEED) : DEFAULT_SEED;
const SCALE = process.env.RELATIONS_RUNS ? Number(process.env.RELATIONS_RUNS) : 1;

/**
 * Each relation test's limit: its cases are real requests, so on a shared two-core machine a run that takes
 * 20 s alone can take minutes under load. Not a speed target (those live in `npm run bench`).
 */
export const RELATION_TIMEOUT = 600_000;

/** How many cases a property draws in this run. */
export function runs(base: number): number {
  return Math.max(1, Math.round(base * SCALE));
}

export function seedLine(): string {
  return `relations seed ${SEED} (replay or change with RELATIONS_SEED=<n>; RELATIONS_RUNS=<factor> scales the draws)`;
}

export class RelationError extends Error {
  declare readonly relation: string;
  declare readonly request: ApiRequest | string;
  declare readonly surface: string;
  declare readonly detail: string;

  constructor(relation: string, request: ApiRequest | string, surface: string, detail: string) {
    super(`${relation} — violated by ${String(request)} [${surface}]: ${detail}`);
    this.name = 'RelationError';
    // Not enumerable: vitest would print them all again under the message.
    for (const [key, value] of Object.entries({ relation, request, surface, detail })) Object.defineProperty(this, key, { value, enumerable: false });
  }
}

/** Known violations met in this process, by id (printed by the world at the end of each file). */
export const knownViolationsSeen = new Map<string, { count: number; example: string }>();

/**
 * Asserts `check` for `numRuns` cases drawn from `arbitrary` with the suite's seed. A failure that is a known
 * violation awaiting its fix (known-violations.ts) is counted, not thrown.
 */
export async function holds<T>(arbitrary: fc.Arbitrary<T>, check: (value: T) => Promise<void>, numRuns: number): Promise<void> {
  const tolerant = async (value: T) => {
    try {
      await check(value);
    } catch (error) {
      const known = error instanceof RelationError ? knownViolationOf(error) : undefined;
      if (!known) throw error;
      const seen = knownViolationsSeen.get(known.id);
      knownViolationsSeen.set(known.id, { count: (seen?.count ?? 0) + 1, example: seen?.example ?? (error as Error).message });
    }
  };
  await fc.assert(fc.asyncProperty(arbitrary, tolerant), { seed: SEED, numRuns: runs(numRuns) });
}

/** Equal numbers (or both null) within a relative tolerance; counts are compared exactly with tolerance 0. */
export function same(actual: unknown, expected: unknown, tolerance = 0): boolean {
  if (actual === null || expected === null || actual === undefined || expected === undefined) return actual === expected;
  if (typeof actual !== 'number' || typeof expected !== 'number') return Object.is(actual, expected);
  return Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(actual), Math.abs(expected));
}

/** One relation checked on one request through one surface: each failed check names all three. */
export interface Check {
  equal(what: string, actual: unknown, expected: unknown, tolerance?: number): void;
  that(what: string, holds: boolean, detail?: string): void;
}

export function check(relation: string, request: ApiRequest | string, surface: string): Check {
  return {
    equal(what, actual, expected, tolerance = 0) {
      if (!same(actual, expected, tolerance)) {
        throw new RelationError(relation, request, surface, `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
      }
    },
    that(what, holds, detail) {
      if (!holds) throw new RelationError(relation, request, surface, detail === undefined ? what : `${what}: ${detail}`);
    },
  };
}

/** Ratios and averages are recomputed from rounded or summed parts: equal to this relative precision. */
export const RATIO_TOLERANCE = 1e-6;
/** Sums of floating-point figures (CTR, position) in a different order. */
export const FLOAT_TOLERANCE = 1e-9;
