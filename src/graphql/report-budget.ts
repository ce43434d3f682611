// The report budget of one /api/graphql request. The static cost limit sees `projects { summary search }` once; the
// budget counts the provider reports the request really reads. It is charged where reports are loaded — the
// context's cachedFetch, which every provider read of every loader and of the raw proxies goes through — so no
// field, present or future, root or nested, can read a report without paying for it. A report counts once per
// request however many fields share it, and whether or not a cache answers it (the cost of a query does not depend
// on what happens to be cached). The answer says what it cost: `extensions.cost { reports, budget }`.
import { GraphQLError } from 'graphql';

/** Provider reports one request may read: the portfolio query over the three demo projects reads 17. */
export const MAX_REPORTS_PER_QUERY = 30;

export const REPORT_BUDGET_EXCEEDED = 'report_budget_exceeded';

export interface ReportBudget {
  /**
   * Counts the report `key` (a provider request's cache key) unless this request already read it; past the budget
   * returns the error to fail the report with, before any upstream call, and counts nothing.
   */
  charge(key: string): GraphQLError | undefined;
  /** Reports counted so far, and the budget: what `extensions.cost` shows. */
  cost(): { reports: number; budget: number };
}

export function createReportBudget(budget = MAX_REPORTS_PER_QUERY): ReportBudget {
  const read = new Set<string>();
  return {
    charge(key) {
      if (read.has(key)) return undefined;
      if (read.size >= budget) {
        return new GraphQLError(
          `This request has already read its budget of ${budget} provider reports, and this field needs more; ask for fewer projects or fields, or split the query (extensions.cost shows what it read).`,
          { extensions: { code: REPORT_BUDGET_EXCEEDED, status: 400 } },
        );
      }
      read.add(key);
      return undefined;
    },
    cost: () => ({ reports: read.size, budget }),
  };
}
