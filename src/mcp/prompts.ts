// MCP prompts: ready-made analyses that tell the model which tools to call and what to write.
import * as z from 'zod';
import type { GetPromptResult, McpServer } from '@modelcontextprotocol/server';
import { PARAMETERS } from '../contract/parameters.ts';
import { SEARCH_METRIC_NAMES } from '../domain/catalogue.ts';
import { withCachedJsonSchema } from './cached-schema.ts';

const project = z.string().describe(PARAMETERS.project.description);
const period = (fallback: string) => z.string().optional().describe(`${PARAMETERS.period.description} Default: ${fallback}.`);

const WeeklyArgs = withCachedJsonSchema(z.object({ project, period: period('7days') }));
const CompareArgs = withCachedJsonSchema(
  z.object({
    project,
    period: period('28days'),
    compare: z.string().optional().describe('previous (default) or year: what the period is compared with.'),
  }),
);
const QuickWinArgs = withCachedJsonSchema(z.object({ project, period: period('28days') }));
const ChangeArgs = withCachedJsonSchema(
  z.object({
    project,
    metric: z.string().optional().describe('The metric whose change to explain (analytics or search; see get_metadata). Default: sessions.'),
    period: period('7days'),
    compare: z.string().optional().describe('previous (default) or year: what the period is compared with.'),
  }),
);
const FunnelArgs = withCachedJsonSchema(z.object({ funnel: z.string().describe(PARAMETERS.funnel.description), period: period('28days') }));

/** Each prompt's argument names (completion/complete suggests values for them by name). */
export const PROMPT_ARGUMENTS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries({ weekly_report: WeeklyArgs, weekly_review: WeeklyArgs, compare_periods: CompareArgs, search_quick_wins: QuickWinArgs, explain_metric_change: ChangeArgs, funnel_review: FunnelArgs }).map(([name, schema]) => [name, Object.keys(schema.shape)]),
);

function userMessage(text: string): GetPromptResult {
  return { messages: [{ role: 'user', content: { type: 'text', text } }] };
}

export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'weekly_report',
    { title: 'Weekly report', description: 'A short report of how the site did in the last week (or another period), traffic and search.', argsSchema: WeeklyArgs },
    ({ project, period = '7days' }) =>
      userMessage(
        `Write a concise weekly report for the Siteline project "${project}" covering period ${period}.\n` +
          `1. get_site_summary (project=${project}, period=${period}, compare=previous): headline traffic and engagement with changes.\n` +
          `2. get_site_timeseries (metric=sessions, period=${period}): the shape of the week, notable days.\n` +
          `3. get_site_breakdown (dimension=sessionDefaultChannelGroup, period=${period}, compare=previous) and (dimension=pagePath, limit=10): where visitors came from and what they read.\n` +
          `4. get_search_summary and get_search_breakdown (dimension=query, limit=10, period=${period}): organic search.\n` +
          'Report numbers with their change in percent, name the 3 most important movements and one suggested action. Mention meta.warnings that affect the numbers.',
      ),
  );
  server.registerPrompt(
    'weekly_review',
    {
      title: 'Weekly review',
      description: 'What changed this week and why, the days that broke the pattern, and the search opportunities worth acting on — from the insight tools, in a few calls.',
      argsSchema: WeeklyArgs,
    },
    ({ project, period = '7days' }) =>
      userMessage(
        `Write a weekly review for the Siteline project "${project}" covering period ${period}.\n` +
          `1. explain_change (project=${project}, period=${period}, metric=sessions) and again with metric=engagementRate and metric=clicks: the change and its drivers. Lead with drivers where significant=true; mention others only as context (an echo names the driver it echoes).\n` +
          `2. find_anomalies (project=${project}, period=28days, metric=sessions): days in or near the week that broke the pattern, with their drivers.\n` +
          `3. find_search_opportunities (project=${project}, period=28days, brand=nonbrand): the 5 opportunities with the most clicksAtStake.\n` +
          'Report: one headline sentence, what changed and why (numbers: value, previous, deltaPct as a percent), anomalies, and three concrete actions. Do not redo the arithmetic; the tools already decomposed the change. Mention meta.warnings that affect the numbers.',
      ),
  );
  server.registerPrompt(
    'compare_periods',
    { title: 'Compare two periods', description: 'Explains what changed between a period and the previous one (or the same period a year earlier).', argsSchema: CompareArgs },
    ({ project, period = '28days', compare = 'previous' }) =>
      userMessage(
        `Compare period ${period} with its ${compare === 'year' ? 'same period a year earlier' : 'previous period'} for the Siteline project "${project}".\n` +
          `1. get_site_summary (period=${period}, compare=${compare}) and get_search_summary (period=${period}, compare=${compare}).\n` +
          `2. For the metrics that moved most, find the drivers with get_site_breakdown (compare=${compare}) by sessionDefaultChannelGroup, country, deviceCategory and landingPage.\n` +
          'Explain the main changes with numbers (value, previous, delta in percent), separate real changes from noise, and list open questions.',
      ),
  );
  server.registerPrompt(
    'explain_metric_change',
    {
      title: 'Why did a metric change?',
      description: 'Explains a metric’s change against the previous period (or a year earlier): its drivers, the days that broke the pattern, and what to do.',
      argsSchema: ChangeArgs,
    },
    ({ project, metric = 'sessions', period = '7days', compare = 'previous' }) =>
      userMessage(
        `Explain why ${metric} changed for the Siteline project "${project}" in period ${period} (compared with ${compare === 'year' ? 'a year earlier' : 'the previous period'}).\n` +
          `1. explain_change (project=${project}, metric=${metric}, period=${period}, compare=${compare}): the change and its drivers. Lead with drivers where significant=true.\n` +
          `2. find_anomalies (project=${project}, metric=${metric}, period=28days): days that broke the pattern, with their drivers.\n` +
          `3. ${(SEARCH_METRIC_NAMES as readonly string[]).includes(metric) ? 'get_search_timeseries' : `get_site_timeseries (metric=${metric}, compare=${compare})`} for period ${period}: the shape of the change.\n` +
          'Report: one headline sentence with the numbers (value, previous, deltaPct as a percent), the drivers that explain it, anomalous days, and two concrete next steps. Do not redo the arithmetic. Mention meta.warnings that affect the numbers.',
      ),
  );
  server.registerPrompt(
    'funnel_review',
    { title: 'Review a funnel', description: 'Where a stored funnel loses its users, how that compares with the period before, and what to try.', argsSchema: FunnelArgs },
    ({ funnel, period = '28days' }) =>
      userMessage(
        `Review the Siteline funnel "${funnel}" for period ${period}.\n` +
          `1. get_funnel_results (funnel=${funnel}, period=${period}): users per step, conversionRate, dropOff and dropOffRate, completionRate.\n` +
          `2. get_funnel_results again for a period as long just before (custom_START_END) to see which step got better or worse.\n` +
          '3. list_funnels for the project in the result: the definition of each step (event or page, how it matches).\n' +
          'Report: the completion rate and its change, the step with the largest drop-off, one hypothesis per weak step, and what to test first. Mention meta.warnings that affect the numbers.',
      ),
  );
  server.registerPrompt(
    'search_quick_wins',
    { title: 'Find search quick wins', description: 'Queries and pages ranking just off the top positions with many impressions and a low click-through rate.', argsSchema: QuickWinArgs },
    ({ project, period = '28days' }) =>
      userMessage(
        `Find search quick wins for the Siteline project "${project}" in period ${period}.\n` +
          `1. get_search_breakdown (dimension=query, order=-impressions, limit=200, period=${period}).\n` +
          '2. Keep queries with position between 4 and 20 and impressions well above the median; note their ctr against the site average from get_search_summary.\n' +
          `3. get_search_breakdown (dimension=page, order=-impressions, limit=100) for the pages those queries land on (filter page=@… where useful).\n` +
          'List the 10 best opportunities: query, page, position, impressions, ctr, and a concrete improvement (title/meta description, content, internal links).',
      ),
  );
}
