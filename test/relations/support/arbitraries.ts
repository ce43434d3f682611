// Random valid requests over the parameter space, per route: period (every relative form, custom ranges ending
// anywhere in the last ~16 months, ranges across a new year, ranges before the providers' history, and the
// calendar periods when the code accepts them), compare, filters (single, `;` AND and `,` OR, on values the demo
// data has), dimension, metrics, paging, order and sp. A few combinations are left out only because they cost
// seconds of sandbox work per request (see COSTLY); none is left out because of what it answers.
import fc from 'fast-check';
import { SUMMARY_METRICS } from '../../../src/domain/catalogue.ts';
import { ApiRequest } from './request.ts';
import type { World } from './world.ts';

export const RELATIVE_PERIODS = ['today', 'yesterday', '7days', '28days', '90days', '180days', '365days'] as const;
export const CALENDAR_PERIODS = ['month_to_date', 'last_month', 'quarter_to_date', 'last_quarter', 'year_to_date', 'last_year'] as const;

export const BREAKDOWN_DIMENSIONS = [
  'country',
  'city',
  'continent',
  'deviceCategory',
  'operatingSystem',
  'browser',
  'sessionDefaultChannelGroup',
  'sessionSource',
  'sessionMedium',
  'landingPage',
  'pagePath',
  'eventName',
] as const;

const BREAKDOWN_METRICS = ['activeUsers', 'newUsers', 'sessions', 'screenPageViews', 'engagedSessions', 'engagementRate', 'bounceRate', 'eventCount', 'keyEvents', 'averageSessionDuration'] as const;

/** A period and how many days it spans (what the valid intervals depend on). */
export interface DrawnPeriod {
  period: string | undefined;
  days: number;
  /** Ends today (so far): the range is not complete yet. */
  touchesToday: boolean;
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const epoch = (date: string) => Date.parse(`${date}T00:00:00Z`);
const custom = (start: string, end: string): DrawnPeriod => ({ period: `custom_${start}_${end}`, days: Math.round((epoch(end) - epoch(start)) / DAY) + 1, touchesToday: false });

/** The period forms, for a project whose today is `today`. */
export function periodArbitrary(world: World, project: string, options: { maxDays?: number } = {}): fc.Arbitrary<DrawnPeriod> {
  const today = epoch(world.today[project]!);
  const maxDays = options.maxDays ?? 400;
  // Every arbitrary here draws within its bounds instead of filtering: fast-check retries a filter synchronously,
  // so a filter no draw can pass never returns, and no test timeout can stop it.
  if (maxDays < 1) throw new Error(`periodArbitrary: maxDays ${maxDays} leaves no period to draw`);
  const relativePeriods = [...RELATIVE_PERIODS, undefined]
    .map((name): DrawnPeriod => {
      const days = name === undefined ? 28 : name === 'today' || name === 'yesterday' ? 1 : Number(name.replace('days', ''));
      return { period: name, days, touchesToday: name === 'today' };
    })
    .filter((p) => p.days <= maxDays);
  const relative = fc.constantFrom(...relativePeriods);
  // Ranges ending anywhere from today back past engine1's 16 months.
  const recent = fc.record({ endAgo: fc.integer({ min: 0, max: 520 }), length: fc.integer({ min: 1, max: Math.min(maxDays, 200) }) }).map(({ endAgo, length }) => {
    const end = today - endAgo * DAY;
    return { ...custom(iso(end - (length - 1) * DAY), iso(end)), touchesToday: endAgo === 0 };
  });
  // Across a new year: Dec 15–31 to Jan 1–20 of a year the providers cover, or do not.
  const thisYear = new Date(today).getUTCFullYear();
  const newYear = fc
    .record({ year: fc.integer({ min: 2020, max: thisYear - 1 }), startDay: fc.integer({ min: Math.max(15, 33 - maxDays), max: 31 }) })
    .chain(({ year, startDay }) =>
      fc
        .integer({ min: 1, max: Math.max(1, Math.min(20, maxDays - (32 - startDay))) })
        .map((endDay) => custom(`${year}-12-${String(startDay).padStart(2, '0')}`, `${year + 1}-01-${String(endDay).padStart(2, '0')}`)),
    );
  // Before (or straddling) the analytics history, as far back as the API accepts.
  const early = fc
    .record({ start: fc.integer({ min: epoch('2015-08-14'), max: epoch('2021-02-15') }), length: fc.integer({ min: 1, max: Math.min(maxDays, 60) }) })
    .map(({ start, length }) => {
      const day = Math.floor(start / DAY) * DAY;
      return custom(iso(day), iso(day + (length - 1) * DAY));
    });
  const forms = [
    { weight: 5, arbitrary: relative },
    { weight: 4, arbitrary: recent },
    ...(maxDays >= 2 ? [{ weight: 1, arbitrary: newYear }] : []),
    { weight: 1, arbitrary: early },
  ];
  const calendar = world.calendarPeriods
    ? CALENDAR_PERIODS.map((name): DrawnPeriod => ({ period: name, days: name.includes('year') ? 365 : name.includes('quarter') ? 92 : 31, touchesToday: name.endsWith('_to_date') })).filter((p) => p.days <= maxDays)
    : [];
  if (calendar.length > 0) forms.push({ weight: 1, arbitrary: fc.constantFrom(...calendar) });
  return fc.oneof(...forms);
}

export const compareArbitrary = fc.constantFrom(undefined, 'none', 'previous', 'year');
export const comparingArbitrary = fc.constantFrom('previous', 'year');

/** Writes a value so the filter parser reads it back unchanged. */
export const filterValue = (value: string) => value.replace(/[\\,;]/g, (c) => `\\${c}`);
const regexQuote = (value: string) => value.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

/** One condition on a dimension whose values are `values`: every operator, with a value that matches something. */
function conditionArbitrary(dimension: string, values: readonly string[], operators: readonly string[]): fc.Arbitrary<string> {
  return fc.record({ op: fc.constantFrom(...operators), value: fc.constantFrom(...values), cut: fc.integer({ min: 2, max: 5 }), anchored: fc.boolean() }).map(({ op, value, cut }) => {
    if (op === '==' || op === '!=') return `${dimension}${op}${filterValue(value)}`;
    if (op === '=@' || op === '!@') return `${dimension}${op}${filterValue(value.slice(0, cut) || value)}`;
    // A regex: the value's start anchored, so it is the value's family ("^Uni" → United States, United Kingdom).
    return `${dimension}${op}${filterValue(`^${regexQuote(value.slice(0, cut) || value)}`)}`;
  });
}

const ALL_OPERATORS = ['==', '!=', '=@', '!@', '=~', '!~'] as const;
const POSITIVE_OPERATORS = ['==', '=@', '=~'] as const;

/** Analytics filters: one to three conditions, `,` (OR) inside a clause and `;` (AND) between clauses. */
export function analyticsFilterArbitrary(world: World, project: string): fc.Arbitrary<string> {
  const vocabulary = world.vocabulary[project]!;
  const dimensions = Object.keys(vocabulary).filter((d) => !d.startsWith('search:') && vocabulary[d]!.length > 0);
  const condition = fc.constantFrom(...dimensions).chain((d) => conditionArbitrary(d, vocabulary[d]!, ALL_OPERATORS));
  const clause = fc.array(condition, { minLength: 1, maxLength: 2 }).map((c) => c.join(','));
  return fc.array(clause, { minLength: 1, maxLength: 2 }).map((c) => c.join(';'));
}

/** engine1's filters: AND of conditions; an OR clause only of positive conditions on one dimension (else a 400). */
export function searchFilterArbitrary(world: World, project: string, dimensions: readonly string[]): fc.Arbitrary<string> {
  const vocabulary = world.vocabulary[project]!;
  const single = fc.constantFrom(...dimensions).chain((d) => conditionArbitrary(d, vocabulary[`search:${d}`]!, ALL_OPERATORS));
  const either = fc.constantFrom(...dimensions).chain((d) =>
    fc.array(conditionArbitrary(d, vocabulary[`search:${d}`]!, POSITIVE_OPERATORS), { minLength: 2, maxLength: 3 }).map((c) => c.join(',')),
  );
  const clause = fc.oneof({ weight: 3, arbitrary: single }, { weight: 1, arbitrary: either });
  return fc.array(clause, { minLength: 1, maxLength: 2 }).map((c) => c.join(';'));
}

/** The projects a world draws from (the demo projects, or fewer). */
export function projectArbitrary(world: World): fc.Arbitrary<string> {
  return fc.constantFrom(...Object.keys(world.today));
}

/** sp values a project answers: all, and each engine it has connected. */
export function spArbitrary(world: World, project: string): fc.Arbitrary<string | undefined> {
  return fc.constantFrom(undefined, 'all', ...world.engines[project]!);
}

/** Valid intervals of a site timeseries for a period (hour only up to 10 days). */
export function intervalArbitrary(period: DrawnPeriod): fc.Arbitrary<string | undefined> {
  return fc.constantFrom(undefined, 'day', 'week', 'month', ...(period.days <= 10 ? ['hour'] : []));
}

/**
 * Combinations left out for their cost alone (seconds of work each on two cores), never for what they answer:
 * acme-shop's search query and page rows (~26,000 queries: engine1 costs 2 s per day of rows, engine2's weekly
 * history 7 s to build), northwind-journal's beyond four weeks, and search insights, which read engine1 by query
 * and page and split ratios quadratically (issue 27, defect 5): none on acme-shop (14 s for clicks over 7 days),
 * on northwind-journal only counts over a week (its ctr and position took 12–24 s even for one day).
 */
export const COSTLY = {
  queryRows: (project: string, dimension: string, days: number) => (dimension === 'query' || dimension === 'page') && (project === 'acme-shop' || (project === 'northwind-journal' && days > 28)),
  searchInsight: (project: string, metric: string, days: number) => project === 'acme-shop' || (project === 'northwind-journal' && (days > 7 || metric === 'ctr' || metric === 'position')),
  /** Search filters on query or page make engine1 read those rows too. */
  searchFilterDimensions: (project: string): readonly string[] => (project === 'acme-shop' ? ['country', 'device'] : ['query', 'page', 'country', 'device']),
};

export function summaryRequest(world: World): fc.Arbitrary<ApiRequest> {
  return projectArbitrary(world).chain((project) =>
    fc.record({ period: periodArbitrary(world, project), compare: compareArbitrary }).map(({ period, compare }) => new ApiRequest('summary', project, { period: period.period, compare })),
  );
}

export function timeseriesRequest(world: World, metrics: readonly string[] = SUMMARY_METRICS): fc.Arbitrary<ApiRequest> {
  return projectArbitrary(world).chain((project) =>
    periodArbitrary(world, project).chain((period) =>
      fc
        .record({ metric: fc.constantFrom(...metrics), interval: intervalArbitrary(period), compare: compareArbitrary })
        .map(({ metric, interval, compare }) => new ApiRequest('timeseries', project, { metric, period: period.period, interval, compare })),
    ),
  );
}

export function breakdownRequest(world: World, options: { compare?: fc.Arbitrary<string | undefined>; filter?: 'always' | 'sometimes' } = {}): fc.Arbitrary<ApiRequest> {
  return projectArbitrary(world).chain((project) =>
    fc
      .record({
        dimension: fc.constantFrom(...BREAKDOWN_DIMENSIONS),
        metrics: fc.option(fc.subarray([...BREAKDOWN_METRICS], { minLength: 1, maxLength: 3 }), { nil: undefined }),
        limit: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
        offset: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 5 }) }),
        descending: fc.boolean(),
        orderBy: fc.nat(),
        filter: options.filter === 'always' ? analyticsFilterArbitrary(world, project) : fc.option(analyticsFilterArbitrary(world, project), { nil: undefined }),
        compare: options.compare ?? compareArbitrary,
        period: periodArbitrary(world, project),
      })
      .map(({ dimension, metrics, limit, offset, descending, orderBy, filter, compare, period }) => {
        const names = metrics ?? ['activeUsers', 'sessions', 'screenPageViews'];
        const order = orderBy % 3 === 0 ? undefined : `${descending ? '-' : ''}${names[orderBy % names.length]}`;
        return new ApiRequest('breakdown', project, {
          dimension,
          metrics: metrics?.join(','),
          limit: limit === undefined ? '10' : String(limit),
          offset: offset === undefined ? undefined : String(offset),
          order,
          filter,
          compare,
          period: period.period,
        });
      }),
  );
}

export function searchSummaryRequest(world: World): fc.Arbitrary<ApiRequest> {
  return projectArbitrary(world).chain((project) =>
    fc
      .record({ period: periodArbitrary(world, project), compare: compareArbitrary, sp: spArbitrary(world, project) })
      .map(({ period, compare, sp }) => new ApiRequest('searchSummary', project, { period: period.period, compare, sp })),
  );
}

export function searchTimeseriesRequest(world: World): fc.Arbitrary<ApiRequest> {
  return projectArbitrary(world).chain((project) =>
    fc.record({ period: periodArbitrary(world, project), sp: spArbitrary(world, project) }).chain(({ period, sp }) => {
      // engine1 keeps hourly data for its last 10 days, engine2 has none.
      const hourly = sp !== 'engine2' && (period.period === 'today' || period.period === 'yesterday' || period.period === '7days');
      return fc
        .constantFrom(undefined, 'day', 'week', 'month', ...(hourly ? ['hour'] : []))
        .map((interval) => new ApiRequest('searchTimeseries', project, { period: period.period, sp, interval }));
    }),
  );
}

export const SEARCH_DIMENSIONS = ['query', 'page', 'country', 'device', 'date'] as const;

export function searchBreakdownRequest(world: World, options: { maxDays?: number } = {}): fc.Arbitrary<ApiRequest> {
  return projectArbitrary(world).chain((project) =>
    periodArbitrary(world, project, { maxDays: options.maxDays ?? 400 }).chain((period) =>
      fc
        .record({
          // Country, device and date are never costly, so there is always a dimension left to draw.
          dimension: fc.constantFrom(...SEARCH_DIMENSIONS.filter((d) => !COSTLY.queryRows(project, d, period.days))),
          sp: spArbitrary(world, project),
          limit: fc.integer({ min: 1, max: 10 }),
          order: fc.constantFrom(undefined, '-clicks', 'clicks', '-impressions', '-ctr', 'position'),
          filtered: fc.boolean(),
        })
        .chain(({ dimension, sp, limit, order, filtered }) => {
          // engine2 serves query and page only, and can filter its rows only on the dimension they carry.
          const chosenSp = sp === 'engine2' && dimension !== 'query' && dimension !== 'page' ? 'engine1' : sp;
          const filterDimensions = chosenSp === 'engine2' ? [dimension] : COSTLY.searchFilterDimensions(project).filter((d) => period.days <= 28 || (d !== 'query' && d !== 'page'));
          const filter = filtered && dimension !== 'date' && filterDimensions.length > 0 ? searchFilterArbitrary(world, project, filterDimensions).map((f): string | undefined => f) : fc.constant(undefined);
          return filter.map((f) => new ApiRequest('searchBreakdown', project, { dimension, sp: chosenSp, period: period.period, limit: String(limit), order, filter: f }));
        }),
    ),
  );
}

export function changesRequest(world: World): fc.Arbitrary<ApiRequest> {
  const analyticsMetrics = SUMMARY_METRICS.filter((m) => m !== 'averageSessionDuration');
  const analytics = projectArbitrary(world).chain((project) =>
    fc
      .record({ metric: fc.constantFrom(...analyticsMetrics), compare: fc.constantFrom(undefined, 'previous', 'year'), period: periodArbitrary(world, project) })
      .map(({ metric, compare, period }) => new ApiRequest('changes', project, { metric, period: period.period, compare })),
  );
  const searchInsights = ['northwind-journal', 'tiny-saas']
    .filter((project) => project in world.today)
    .flatMap((project) => ['clicks', 'impressions', 'ctr', 'position'].map((metric) => ({ project, metric })))
    .filter(({ project, metric }) => !COSTLY.searchInsight(project, metric, 1));
  const search = fc
    .constantFrom(...searchInsights)
    .chain(({ project, metric }) =>
      fc
        .record({ compare: fc.constantFrom(undefined, 'previous', 'year'), sp: spArbitrary(world, project), period: periodArbitrary(world, project, { maxDays: project === 'tiny-saas' ? 400 : 7 }) })
        .map(({ compare, sp, period }) => new ApiRequest('changes', project, { metric, period: period.period, compare, sp })),
    );
  return 'tiny-saas' in world.today && searchInsights.length > 0 ? fc.oneof(analytics, search) : analytics;
}

const LANDING_ORDERS = [undefined, '-sessions', 'sessions', '-engagementRate', '-keyEvents', '-clicks', '-impressions', 'ctr', 'position'];

export function landingPagesRequest(world: World): fc.Arbitrary<ApiRequest> {
  return fc.constantFrom(...['northwind-journal', 'tiny-saas'].filter((p) => p in world.today)).chain((project) =>
    fc
      .record({
        // Within the days whose page rows are not costly (northwind-journal: four weeks), never filtered to them.
        period: periodArbitrary(world, project, { maxDays: COSTLY.queryRows(project, 'page', 90) ? 28 : 90 }),
        sp: spArbitrary(world, project),
        limit: fc.integer({ min: 1, max: 10 }),
        order: fc.constantFrom(...LANDING_ORDERS),
        path: fc.option(fc.constantFrom(...world.vocabulary[project]!.landingPage!), { nil: undefined }),
      })
      .map(({ period, sp, limit, order, path }) =>
        new ApiRequest('landingPages', project, { period: period.period, sp, limit: String(limit), order, filter: path === undefined ? undefined : `page=@${filterValue(path.slice(0, 6))}` }),
      ),
  );
}
