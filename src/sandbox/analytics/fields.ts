// The GA4 schema the sandbox serves: every dimension and metric with its metadata, where its values come from
// (a time cell, a family, the date range), how a metric derives from base totals, and which API surfaces accept it.
import type { MetricPlan } from '../data/cube.ts';

export type MetricType = 'TYPE_INTEGER' | 'TYPE_FLOAT' | 'TYPE_SECONDS' | 'TYPE_CURRENCY' | 'TYPE_STANDARD';

export interface DimensionDef {
  apiName: string;
  uiName: string;
  description: string;
  category: string;
  source: 'time' | 'family' | 'range';
  core: boolean;
  realtime: boolean;
  custom?: boolean;
  item?: boolean;
}

export interface MetricDef {
  apiName: string;
  uiName: string;
  description: string;
  category: string;
  type: MetricType;
  /** Base totals the value is computed from. */
  needs: readonly string[];
  compute: (get: (base: string) => number) => number;
  expression?: string;
  core: boolean;
  realtime: boolean;
  custom?: boolean;
  item?: boolean;
}

const dim = (apiName: string, uiName: string, category: string, source: DimensionDef['source'], description: string, extra: Partial<DimensionDef> = {}): DimensionDef =>
  ({ apiName, uiName, description, category, source, core: true, realtime: false, ...extra });

export const DIMENSIONS: readonly DimensionDef[] = [
  dim('date', 'Date', 'Time', 'time', 'The date of the event, formatted as YYYYMMDD.'),
  dim('dateHour', 'Date + hour (YYYYMMDDHH)', 'Time', 'time', 'The combined values of date and hour formatted as YYYYMMDDHH.'),
  dim('day', 'Day', 'Time', 'time', 'The day of the month, a two-digit number from 01 to 31.'),
  dim('dayOfWeek', 'Day of week', 'Time', 'time', 'The integer day of the week (0 = Sunday).'),
  dim('dayOfWeekName', 'Day of week name', 'Time', 'time', 'The day of the week in English.'),
  dim('hour', 'Hour', 'Time', 'time', 'The two-digit hour of the day (00-23).'),
  dim('month', 'Month', 'Time', 'time', 'The month of the event, a two-digit integer from 01 to 12.'),
  dim('nthDay', 'Nth day', 'Time', 'time', 'The number of days since the start of the date range.'),
  dim('week', 'Week', 'Time', 'time', 'The week of the event, a two-digit number from 01 to 53 (weeks start on Sunday).'),
  dim('year', 'Year', 'Time', 'time', 'The four-digit year of the event.'),
  dim('isoWeek', 'ISO week of the year', 'Time', 'time', 'ISO week number (weeks start on Monday), 01 to 53.'),
  dim('isoYear', 'ISO year', 'Time', 'time', 'The ISO year of the event.'),
  dim('isoYearIsoWeek', 'ISO week of ISO year', 'Time', 'time', 'The combined values of isoYear and isoWeek (YYYYWW).'),
  dim('yearMonth', 'Year month', 'Time', 'time', 'The combined values of year and month (YYYYMM).'),
  dim('yearWeek', 'Year week', 'Time', 'time', 'The combined values of year and week (YYYYWW).'),
  dim('dateRange', 'Date range', 'General', 'range', 'The name of the date range.'),
  dim('minutesAgo', 'Realtime minutes ago', 'Time', 'time', 'The number of minutes ago that an event was collected (00 = current minute).', { core: false, realtime: true }),
  dim('continent', 'Continent', 'Geography', 'family', 'The continent from which the user activity originated.'),
  dim('country', 'Country', 'Geography', 'family', 'The country from which the user activity originated.', { realtime: true }),
  dim('countryId', 'Country ID', 'Geography', 'family', 'The ISO 3166-1 alpha-2 code of the country.', { realtime: true }),
  dim('city', 'City', 'Geography', 'family', 'The city from which the user activity originated.', { realtime: true }),
  dim('cityId', 'City ID', 'Geography', 'family', 'The geographic ID of the city.', { realtime: true }),
  dim('language', 'Language', 'Demographics', 'family', 'The language setting of the user\'s browser or device.'),
  dim('userAgeBracket', 'Age', 'Demographics', 'family', 'User age brackets (from Google signals).'),
  dim('userGender', 'Gender', 'Demographics', 'family', 'User gender (from Google signals).'),
  dim('deviceCategory', 'Device category', 'Platform / Device', 'family', 'The type of device: desktop, tablet, or mobile.', { realtime: true }),
  dim('operatingSystem', 'Operating system', 'Platform / Device', 'family', 'The operating systems used by visitors.'),
  dim('browser', 'Browser', 'Platform / Device', 'family', 'The browsers used to view your website.'),
  dim('platform', 'Platform', 'Platform / Device', 'family', 'The platform on which your app or website ran.', { realtime: true }),
  dim('streamId', 'Stream ID', 'Platform / Device', 'family', 'The numeric data stream identifier.', { realtime: true }),
  dim('streamName', 'Stream name', 'Platform / Device', 'family', 'The data stream name.', { realtime: true }),
  dim('appVersion', 'App version', 'Platform / Device', 'family', 'The app\'s versionName or short version.', { realtime: true }),
  dim('pagePath', 'Page path', 'Page / Screen', 'family', 'The portion of the URL between the hostname and query string.'),
  dim('pageTitle', 'Page title', 'Page / Screen', 'family', 'The web page titles used on your site.'),
  dim('pageLocation', 'Page location', 'Page / Screen', 'family', 'The protocol, hostname, page path, and query string.'),
  dim('fullPageUrl', 'Full page URL', 'Page / Screen', 'family', 'The hostname, page path, and query string.'),
  dim('pagePathPlusQueryString', 'Page path + query string', 'Page / Screen', 'family', 'The page path and query string.'),
  dim('hostName', 'Hostname', 'Page / Screen', 'family', 'The subdomain and domain names of a URL.'),
  dim('unifiedScreenName', 'Page title and screen name', 'Page / Screen', 'family', 'The page title (web) or screen name (app).', { realtime: true }),
  dim('landingPage', 'Landing page', 'Page / Screen', 'family', 'The page path associated with the first pageview in a session.'),
  dim('landingPagePlusQueryString', 'Landing page + query string', 'Page / Screen', 'family', 'The landing page path and query string.'),
  dim('sessionSource', 'Session source', 'Traffic Source', 'family', 'The source that initiated a session.'),
  dim('sessionMedium', 'Session medium', 'Traffic Source', 'family', 'The medium that initiated a session.'),
  dim('sessionSourceMedium', 'Session source / medium', 'Traffic Source', 'family', 'The combined values of session source and medium.'),
  dim('sessionDefaultChannelGroup', 'Session default channel group', 'Traffic Source', 'family', 'The session\'s default channel group.'),
  dim('sessionCampaignName', 'Session campaign', 'Traffic Source', 'family', 'The marketing campaign name for a session.'),
  dim('firstUserSource', 'First user source', 'Traffic Source', 'family', 'The source that first acquired the user.'),
  dim('firstUserMedium', 'First user medium', 'Traffic Source', 'family', 'The medium that first acquired the user.'),
  dim('firstUserDefaultChannelGroup', 'First user default channel group', 'Traffic Source', 'family', 'The default channel group that first acquired the user.'),
  dim('eventName', 'Event name', 'Event', 'family', 'The name of the event.', { realtime: true }),
  dim('isKeyEvent', 'Is key event', 'Event', 'family', 'The string "true" if the event is a key event.'),
  dim('itemName', 'Item name', 'Ecommerce', 'family', 'The name of the item.', { item: true }),
  dim('itemCategory', 'Item category', 'Ecommerce', 'family', 'The hierarchical category in which the item is classified.', { item: true }),
  dim('itemBrand', 'Item brand', 'Ecommerce', 'family', 'Brand name of the item.', { item: true }),
  dim('customEvent:plan_tier', 'Plan tier', 'Custom', 'family', 'Event-scoped custom dimension: the plan tier of the signed-in user.', { custom: true }),
];

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
const met = (apiName: string, uiName: string, category: string, type: MetricType, needs: string[], compute: MetricDef['compute'], description: string, extra: Partial<MetricDef> = {}): MetricDef =>
  ({ apiName, uiName, description, category, type, needs, compute, core: true, realtime: false, ...extra });
const base = (apiName: string, uiName: string, category: string, description: string, extra: Partial<MetricDef> = {}, type: MetricType = 'TYPE_INTEGER') =>
  met(apiName, uiName, category, type, [apiName], (g) => g(apiName), description, extra);

export const METRICS: readonly MetricDef[] = [
  base('activeUsers', 'Active users', 'User', 'The number of distinct users who visited your site or app.', { realtime: true }),
  base('totalUsers', 'Total users', 'User', 'The number of distinct users who have logged at least one event.'),
  base('newUsers', 'New users', 'User', 'The number of users who interacted with your site for the first time.'),
  base('sessions', 'Sessions', 'Session', 'The number of sessions that began on your site or app.'),
  base('engagedSessions', 'Engaged sessions', 'Session', 'Sessions that lasted longer than 10 seconds, had a key event, or had 2 or more page views.'),
  base('screenPageViews', 'Views', 'Page / Screen', 'The number of app screens or web pages your users viewed.', { realtime: true }),
  base('eventCount', 'Event count', 'Event', 'The count of events.', { realtime: true }),
  base('keyEvents', 'Key events', 'Event', 'The count of key events.', { realtime: true }),
  base('userEngagementDuration', 'User engagement', 'User', 'The total amount of time (in seconds) your site was in the foreground.', {}, 'TYPE_SECONDS'),
  base('addToCarts', 'Add to carts', 'Ecommerce', 'The number of times users added items to their shopping carts.'),
  base('checkouts', 'Checkouts', 'Ecommerce', 'The number of times users started the checkout process.'),
  base('ecommercePurchases', 'Ecommerce purchases', 'Ecommerce', 'The number of times users completed a purchase.'),
  met('transactions', 'Transactions', 'Ecommerce', 'TYPE_INTEGER', ['ecommercePurchases'], (g) => g('ecommercePurchases'), 'The count of transaction events with purchase revenue.'),
  met('purchaseRevenue', 'Purchase revenue', 'Revenue', 'TYPE_CURRENCY', ['purchaseRevenue'], (g) => g('purchaseRevenue') / 100, 'The sum of revenue from purchases.'),
  met('totalRevenue', 'Total revenue', 'Revenue', 'TYPE_CURRENCY', ['purchaseRevenue'], (g) => g('purchaseRevenue') / 100, 'The sum of revenue from purchases, subscriptions, and advertising.'),
  met('averagePurchaseRevenue', 'Average purchase revenue', 'Revenue', 'TYPE_CURRENCY', ['purchaseRevenue', 'ecommercePurchases'], (g) => ratio(g('purchaseRevenue') / 100, g('ecommercePurchases')), 'The average purchase revenue per transaction.'),
  met('engagementRate', 'Engagement rate', 'Session', 'TYPE_FLOAT', ['engagedSessions', 'sessions'], (g) => ratio(g('engagedSessions'), g('sessions')), 'The percentage of engaged sessions.', { expression: 'engagedSessions/sessions' }),
  met('bounceRate', 'Bounce rate', 'Session', 'TYPE_FLOAT', ['engagedSessions', 'sessions'], (g) => (g('sessions') > 0 ? 1 - g('engagedSessions') / g('sessions') : 0), 'The percentage of sessions that were not engaged.', { expression: '1-engagementRate' }),
  met('averageSessionDuration', 'Average session duration', 'Session', 'TYPE_SECONDS', ['userEngagementDuration', 'sessions'], (g) => ratio(g('userEngagementDuration') * 1.42, g('sessions')), 'The average duration (in seconds) of users\' sessions.'),
  met('screenPageViewsPerSession', 'Views per session', 'Page / Screen', 'TYPE_FLOAT', ['screenPageViews', 'sessions'], (g) => ratio(g('screenPageViews'), g('sessions')), 'The number of views per session.', { expression: 'screenPageViews/sessions' }),
  met('screenPageViewsPerUser', 'Views per user', 'Page / Screen', 'TYPE_FLOAT', ['screenPageViews', 'activeUsers'], (g) => ratio(g('screenPageViews'), g('activeUsers')), 'The number of views per active user.', { expression: 'screenPageViews/activeUsers' }),
  met('sessionsPerUser', 'Sessions per user', 'Session', 'TYPE_FLOAT', ['sessions', 'activeUsers'], (g) => ratio(g('sessions'), g('activeUsers')), 'The average number of sessions per user.', { expression: 'sessions/activeUsers' }),
  met('eventsPerSession', 'Events per session', 'Event', 'TYPE_FLOAT', ['eventCount', 'sessions'], (g) => ratio(g('eventCount'), g('sessions')), 'The average number of events per session.', { expression: 'eventCount/sessions' }),
  met('eventCountPerUser', 'Event count per user', 'Event', 'TYPE_FLOAT', ['eventCount', 'activeUsers'], (g) => ratio(g('eventCount'), g('activeUsers')), 'The average number of events per active user.', { expression: 'eventCount/activeUsers' }),
  met('sessionKeyEventRate', 'Session key event rate', 'Session', 'TYPE_FLOAT', ['keyEvents', 'sessions'], (g) => Math.min(1, ratio(g('keyEvents'), g('sessions') * 1.6)), 'The percentage of sessions in which any key event was triggered.'),
  base('itemsViewed', 'Items viewed', 'Ecommerce', 'The number of units viewed for the item.', { item: true }),
  base('itemsAddedToCart', 'Items added to cart', 'Ecommerce', 'The number of units added to cart for a single item.', { item: true }),
  base('itemsPurchased', 'Items purchased', 'Ecommerce', 'The number of units for a single item included in purchase events.', { item: true }),
  met('itemRevenue', 'Item revenue', 'Ecommerce', 'TYPE_CURRENCY', ['itemRevenue'], (g) => g('itemRevenue') / 100, 'The total revenue from purchases of the item.', { item: true }),
  met('customEvent:credits_used', 'Credits used', 'Custom', 'TYPE_STANDARD', ['creditsUsed'], (g) => g('creditsUsed'), 'Event-scoped custom metric: credits consumed.', { custom: true }),
  met('averageCustomEvent:credits_used', 'Average Credits used', 'Custom', 'TYPE_STANDARD', ['creditsUsed', 'creditsCount'], (g) => ratio(g('creditsUsed'), g('creditsCount')), 'Average of a custom metric.', { custom: true }),
  met('countCustomEvent:credits_used', 'Count Credits used', 'Custom', 'TYPE_STANDARD', ['creditsCount'], (g) => g('creditsCount'), 'Count of events carrying the custom metric.', { custom: true }),
];

export const DIMENSION_BY_NAME = new Map(DIMENSIONS.map((d) => [d.apiName, d]));
export const METRIC_BY_NAME = new Map(METRICS.map((m) => [m.apiName, m]));

/** How each base total splits over a breakdown, in dependency order (parents first). */
export const BASE_PLAN: readonly MetricPlan[] = [
  { key: 'sessions', mode: 'root', reach: 'session' },
  { key: 'totalUsers', mode: 'sub', parent: 'sessions', reach: 'user' },
  { key: 'activeUsers', mode: 'sub', parent: 'totalUsers', reach: 'user' },
  { key: 'newUsers', mode: 'sub', parent: 'totalUsers', reach: 'user' },
  // Engagement and duration lean per value (device, channel, country, page): rates differ between them.
  { key: 'engagedSessions', mode: 'weighted', parent: 'sessions', attrs: ['eng'], capped: true, reach: 'session' },
  { key: 'screenPageViews', mode: 'super', parent: 'sessions', attrs: ['pv'] },
  { key: 'userEngagementDuration', mode: 'weighted', parent: 'engagedSessions', attrs: ['dur'] },
  { key: 'eventCount', mode: 'weighted', attrs: ['ev'] },
  { key: 'keyEvents', mode: 'weighted', attrs: ['conv', 'key'] },
  { key: 'addToCarts', mode: 'weighted', attrs: ['conv', 'cart'] },
  { key: 'checkouts', mode: 'weighted', attrs: ['conv', 'checkout'] },
  { key: 'ecommercePurchases', mode: 'weighted', attrs: ['conv', 'buy'] },
  { key: 'purchaseRevenue', mode: 'weighted', parent: 'ecommercePurchases' },
  { key: 'creditsUsed', mode: 'weighted', attrs: ['credits'] },
  { key: 'creditsCount', mode: 'weighted', attrs: ['credits'] },
  { key: 'itemsViewed', mode: 'weighted' },
  { key: 'itemsAddedToCart', mode: 'weighted', attrs: ['cart'] },
  { key: 'itemsPurchased', mode: 'weighted', attrs: ['buy'] },
  { key: 'itemRevenue', mode: 'weighted', attrs: ['buy', 'price'] },
];

/** The plan restricted to what `needed` base totals require (with their parents). */
export function planFor(needed: Iterable<string>): MetricPlan[] {
  const want = new Set(needed);
  for (let changed = true; changed;) {
    changed = false;
    for (const m of BASE_PLAN) {
      if (want.has(m.key) && m.parent && !want.has(m.parent)) {
        want.add(m.parent);
        changed = true;
      }
    }
  }
  return BASE_PLAN.filter((m) => want.has(m.key));
}
