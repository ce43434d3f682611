// Analytics Admin API v1beta `accountSummaries.list` (GET /v1beta/accountSummaries): one sandbox account holding
// a property per catalogue site, paged like Google's (pageSize, pageToken).
import type { DemoSite } from '../catalogue.ts';
import { googleError, jsonResponse } from '../http.ts';

export const ACCOUNT_ID = '90210';

export function isAccountSummaries(method: string, path: string): boolean {
  return method === 'GET' && path === '/v1beta/accountSummaries';
}

export function handleAccountSummaries(url: URL, catalogue: readonly DemoSite[]): Response {
  const pageSize = Number(url.searchParams.get('pageSize') ?? 50);
  if (!Number.isInteger(pageSize) || pageSize < 0) throw googleError(400, 'page_size must be positive');
  const size = Math.min(pageSize || 50, 200);
  const offset = Number(url.searchParams.get('pageToken') ?? 0) || 0;
  const properties = catalogue.map((site) => ({
    property: `properties/${site.analytics.propertyId}`,
    // GA4 property names are usually the site's name or host; both, so pickers can match either.
    displayName: `${site.name} · ${site.domain}`,
    propertyType: 'PROPERTY_TYPE_ORDINARY',
    parent: `accounts/${ACCOUNT_ID}`,
  }));
  const page = properties.slice(offset, offset + size);
  const next = offset + size < properties.length ? String(offset + size) : undefined;
  return jsonResponse({
    accountSummaries: [{ name: `accountSummaries/${ACCOUNT_ID}`, account: `accounts/${ACCOUNT_ID}`, displayName: 'Sandbox Analytics account', propertySummaries: page }],
    ...(next ? { nextPageToken: next } : {}),
  });
}
