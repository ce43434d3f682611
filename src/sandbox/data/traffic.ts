// Where sessions come from: the channel table shared by GA's traffic dimensions and the search engines, so that
// search clicks follow GA's Organic Search sessions (engine1 ≈ google / organic, engine2 ≈ bing / organic).

/** [source, medium, channel group, campaign, share of sessions, conversion tilt, engagement tilt]. */
export const TRAFFIC_ROWS: readonly (readonly [string, string, string, string, number, number, number])[] = [
  ['google', 'organic', 'Organic Search', '(organic)', 0.42, 1, 1],
  ['bing', 'organic', 'Organic Search', '(organic)', 0.05, 1.05, 1.02],
  ['duckduckgo', 'organic', 'Organic Search', '(organic)', 0.012, 1, 1],
  ['(direct)', '(none)', 'Direct', '(direct)', 0.22, 1.2, 1.06],
  ['newsletter', 'email', 'Email', 'weekly-digest', 0.04, 1.6, 1.15],
  ['google', 'cpc', 'Paid Search', 'brand-search', 0.05, 1.4, 0.95],
  ['facebook.com', 'referral', 'Organic Social', '(referral)', 0.025, 0.6, 0.74],
  ['instagram.com', 'referral', 'Organic Social', '(referral)', 0.018, 0.55, 0.7],
  ['t.co', 'referral', 'Organic Social', '(referral)', 0.01, 0.5, 0.72],
  ['linkedin.com', 'referral', 'Organic Social', '(referral)', 0.012, 0.8, 0.85],
];

/** The referral long tail's share of sessions (spread over the site's referrers). */
export const REFERRAL_SHARE = 0.1;

const TOTAL = TRAFFIC_ROWS.reduce((a, r) => a + r[4], 0) + REFERRAL_SHARE;

/** Share of a site's sessions that come from a search engine's organic results. */
export function organicSessionShare(source: 'google' | 'bing'): number {
  return TRAFFIC_ROWS.find((r) => r[0] === source && r[1] === 'organic')![4] / TOTAL;
}
