// Google's client libraries, loaded on first use: together about 6 MiB of heap (and their share of the process's
// resident code) that a process answering from its cache, or serving only engine2, never needs. They are CommonJS,
// so `require` loads them synchronously where a client is built; `import type` keeps the types.
import { createRequire } from 'node:module';

type AnalyticsData = typeof import('@googleapis/analyticsdata');
type AnalyticsAdmin = typeof import('@googleapis/analyticsadmin');
type SearchConsole = typeof import('@googleapis/searchconsole');
type GoogleAuth = typeof import('google-auth-library');

const load = createRequire(import.meta.url);
const loaded: { analyticsData?: AnalyticsData; analyticsAdmin?: AnalyticsAdmin; searchConsole?: SearchConsole; googleAuth?: GoogleAuth } = {};

export const analyticsDataLibrary = (): AnalyticsData => (loaded.analyticsData ??= load('@googleapis/analyticsdata') as AnalyticsData);
export const analyticsAdminLibrary = (): AnalyticsAdmin => (loaded.analyticsAdmin ??= load('@googleapis/analyticsadmin') as AnalyticsAdmin);
export const searchConsoleLibrary = (): SearchConsole => (loaded.searchConsole ??= load('@googleapis/searchconsole') as SearchConsole);
export const googleAuthLibrary = (): GoogleAuth => (loaded.googleAuth ??= load('google-auth-library') as GoogleAuth);
