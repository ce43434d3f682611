// The MCP Apps views (SEP-1865): one ui:// HTML resource each, and the tools whose results each one shows
// (tool-table.ts names the view per tool). Hosts without Apps ignore the link and use the tool's text and
// structuredContent, which are the same with or without a view.
import type { View, ViewKit } from './browser/boot.ts';
import { breakdownView } from './browser/breakdown-view.ts';
import { changeView } from './browser/change-view.ts';
import { funnelView } from './browser/funnel-view.ts';
import { opportunitiesView } from './browser/opportunities-view.ts';
import { timeseriesView } from './browser/timeseries-view.ts';

export interface ViewDefinition {
  uri: string;
  title: string;
  description: string;
  /** Runs in the browser: serialized into the document, so it must use only its parameter (see browser/). */
  makeView: (kit: ViewKit) => View;
}

export const VIEWS = {
  timeseries: {
    uri: 'ui://siteline/timeseries',
    title: 'Metric over time',
    description: 'A metric over time with the comparison period and the anomalous days marked; switch metric, period and comparison.',
    makeView: timeseriesView,
  },
  breakdown: {
    uri: 'ui://siteline/breakdown',
    title: 'Breakdown table',
    description: 'Metrics or search figures by a dimension as a sortable table with bars (both search engines); drill into a row.',
    makeView: breakdownView,
  },
  funnel: {
    uri: 'ui://siteline/funnel',
    title: 'Funnel',
    description: 'Users per funnel step with the drop-off between steps; switch the period.',
    makeView: funnelView,
  },
  change: {
    uri: 'ui://siteline/change',
    title: 'What changed, and why',
    description: 'A metric’s change as a waterfall of its drivers per dimension, significant drivers marked; switch metric, period and comparison.',
    makeView: changeView,
  },
  'search-opportunities': {
    uri: 'ui://siteline/search-opportunities',
    title: 'Search opportunities',
    description: 'Search opportunities by clicks at stake, filterable by kind; open a query or page to see what ranks with it.',
    makeView: opportunitiesView,
  },
} as const satisfies Record<string, ViewDefinition>;

export type ViewName = keyof typeof VIEWS;
