// Validates a raw-proxy path for engine2 (`GetX?param=…`, read methods only) and rebuilds it from constants.
import { invalidParameter, notFound } from '../../errors/app-error.ts';

/**
 * Read-only stats methods of one site and the parameters each takes besides siteUrl. GetUserSites is left out:
 * it lists every site of the credential's user (with verification codes), not just this project's.
 */
export const RAW_ENGINE2_METHODS: Record<string, readonly string[]> = {
  GetRankAndTrafficStats: [],
  GetQueryStats: [],
  GetPageStats: [],
  GetQueryPageStats: ['query'],
  GetPageQueryStats: ['page'],
  GetQueryTrafficStats: ['query'],
  GetQueryPageDetailStats: ['query', 'page'],
};

export interface RawEngine2Target {
  operation: string;
  /** Query parameters without the key; siteUrl is always the bound site. */
  params: Record<string, string>;
}

export function toRawEngine2Path(method: string, path: string, siteUrl: string): RawEngine2Target {
  if (method.toUpperCase() !== 'GET') throw invalidParameter('method', `engine2 read methods take GET, not ${method}.`);
  const [name = '', query = '', ...extra] = path.split('?');
  const allowed = Object.hasOwn(RAW_ENGINE2_METHODS, name) ? RAW_ENGINE2_METHODS[name] : undefined;
  if (allowed === undefined || extra.length > 0) {
    throw invalidParameter('path', `Path "${path.slice(0, 200)}" is not allowed; use one of ${Object.keys(RAW_ENGINE2_METHODS).join(', ')}.`);
  }
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    if (key === 'siteUrl') {
      if (value !== siteUrl) throw notFound('The siteUrl in the path is not this project\'s engine2 site.');
    } else if (allowed.includes(key) && params[key] === undefined) {
      params[key] = value;
    } else {
      throw invalidParameter('path', `Parameter "${key.slice(0, 50)}" is not allowed for ${name}.`);
    }
  }
  for (const key of allowed) {
    if (params[key] === undefined) throw invalidParameter('path', `${name} needs the "${key}" parameter.`);
  }
  return { operation: name, params: { siteUrl, ...params } };
}
