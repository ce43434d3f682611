// One probe of a data source before it is stored (CLI now, the dashboard later): the analytics property answers
// with its metadata, time zone and currency; the search site is among those the credential can read
// (`sites.list`); the Bing site is among the key's verified sites. The reason names what to fix.
import { isAppError } from '../errors/app-error.ts';
import type { Source } from '../domain/sources.ts';
import type { GoogleCredentialInput, ProviderClients } from '../providers/provider-clients.ts';
import { siteUrlCandidates } from '../domain/site-url.ts';

export interface ConnectionTarget {
  source: Source;
  /** Analytics: the property id; engine1/engine2: the site URL (already normalised). */
  propertyId?: string;
  siteUrl?: string;
  /** The stored credential as given: service-account JSON, OAuth client JSON, or the Bing key. */
  secret: string;
}

export type ConnectionCheck =
  | { ok: true; timeZone?: string; currencyCode?: string }
  | { ok: false; code: string; reason: string };

const PROBE_REPORT = { dateRanges: [{ startDate: 'yesterday', endDate: 'yesterday' }], metrics: [{ name: 'sessions' }], limit: '1' };

export async function checkDataSourceConnection(providers: ProviderClients, target: ConnectionTarget): Promise<ConnectionCheck> {
  try {
    switch (target.source) {
      case 'analytics':
        return await checkAnalytics(providers, target.secret, target.propertyId ?? '');
      case 'engine1':
        return await checkSearchConsole(providers, target.secret, target.siteUrl ?? '');
      case 'engine2':
        return await checkBing(providers, target.secret.trim(), target.siteUrl ?? '');
    }
  } catch (error) {
    if (isAppError(error)) return { ok: false, code: error.code, reason: error.message };
    throw error;
  }
}

async function checkAnalytics(providers: ProviderClients, credential: GoogleCredentialInput, propertyId: string): Promise<ConnectionCheck> {
  const client = providers.analytics(credential, propertyId);
  await client.getMetadata();
  const report = await client.runReport(PROBE_REPORT);
  return { ok: true, ...(report.timeZone ? { timeZone: report.timeZone } : {}), ...(report.currencyCode ? { currencyCode: report.currencyCode } : {}) };
}

async function checkSearchConsole(providers: ProviderClients, credential: GoogleCredentialInput, siteUrl: string): Promise<ConnectionCheck> {
  const sites = await providers.engine1(credential, siteUrl).listSites();
  const entry = sites.find((s) => s.siteUrl === siteUrl);
  if (entry && entry.permissionLevel !== 'siteUnverifiedUser') return { ok: true };
  if (entry) return { ok: false, code: 'upstream_permission_denied', reason: `The credential is an unverified user of '${siteUrl}' and cannot read its data; verify ownership or have an owner add it.` };
  const near = sites.map((s) => s.siteUrl).filter((url) => siteUrlCandidates(siteUrl).includes(url));
  const hint = near.length > 0 ? ` Did you mean ${near.map((u) => `'${u}'`).join(' or ')}?` : sites.length > 0 ? ` It can read: ${sites.slice(0, 10).map((s) => s.siteUrl).join(', ')}.` : ' It can read no Search Console property yet.';
  return { ok: false, code: 'upstream_permission_denied', reason: `'${siteUrl}' is not among the Search Console properties this credential can read; add it as a user of that property.${hint}` };
}

async function checkBing(providers: ProviderClients, apiKey: string, siteUrl: string): Promise<ConnectionCheck> {
  const sites = await providers.engine2(apiKey, siteUrl).getUserSites();
  const same = (a: string) => a.toLowerCase().replace(/\/+$/, '') === siteUrl.toLowerCase().replace(/\/+$/, '');
  const entry = sites.find((s) => same(s.url));
  if (entry?.verified) return { ok: true };
  if (entry) return { ok: false, code: 'upstream_permission_denied', reason: `'${siteUrl}' is added but not verified in Bing Webmaster Tools; only verified sites return data.` };
  const listed = sites.length > 0 ? ` The key's account has: ${sites.slice(0, 10).map((s) => s.url).join(', ')}.` : ' The key\'s account has no sites.';
  return { ok: false, code: 'upstream_permission_denied', reason: `'${siteUrl}' is not a site of the Bing Webmaster Tools account that owns this key.${listed}` };
}
