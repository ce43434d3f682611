// Search Console's error bodies: google.rpc.Status plus the legacy `errors` array.
import { ProviderError } from '../http.ts';

const legacy = (code: number, message: string, reason: string, domain: string, status?: string) =>
  new ProviderError(code, { error: { code, message, errors: [{ message, domain, reason }], ...(status ? { status } : {}) } });

export const badRequest = (message: string) => legacy(400, message, 'badRequest', 'global', 'INVALID_ARGUMENT');

export const noSitePermission = (siteUrl: string) =>
  legacy(403, `User does not have sufficient permission for site '${siteUrl}'. See also: https://support.google.com/webmasters/answer/2451999.`, 'forbidden', 'global', 'PERMISSION_DENIED');

export const notFound = (message: string) => legacy(404, message, 'notFound', 'global', 'NOT_FOUND');

export const rateLimited = () => legacy(429, 'Rate Limit Exceeded', 'rateLimitExceeded', 'usageLimits');

export const backendError = () => legacy(500, 'Internal error encountered.', 'backendError', 'global', 'INTERNAL');
