// The `hosts` target switch: a site whose page URLs live on several hosts (an sc-domain: property with www and
// apex, a Bing site registered on another host). Each page keeps one host, chosen by its path, in every answer.
import { hashString } from '../data/hash.ts';
import { bingResponse } from '../engine2/handler.ts';
import { jsonResponse } from '../http.ts';

export async function spreadHosts(response: Response, origin: string, hosts: readonly string[], bing: boolean): Promise<Response> {
  if (!response.ok || hosts.length === 0) return response;
  const body = (await response.json()) as unknown;
  const rewrite = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (!value.startsWith(`${origin}/`)) return value;
      const path = value.slice(origin.length);
      return `${hosts[hashString(path) % hosts.length]!.replace(/\/+$/, '')}${path}`;
    }
    if (Array.isArray(value)) return value.map(rewrite);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v)]));
    return value;
  };
  const rewritten = rewrite(body);
  return bing ? bingResponse(rewritten, response.status) : jsonResponse(rewritten, response.status);
}
