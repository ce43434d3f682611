// A scriptable in-process stand-in for the providers' HTTP surfaces, for client tests that need exact control over
// each answer (fault sequences, bodies). The sandbox covers realistic data; this covers edge cases precisely.
import { generateKeyPairSync } from 'node:crypto';

export interface StubCall {
  method: string;
  path: string;
  search: URLSearchParams;
  authorization: string | null;
  body: string;
}

export type Responder = (call: StubCall) => Response | Promise<Response>;

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** Never answers (until aborted): a hanging upstream. */
export const hang: Responder = () => new Promise<Response>(() => {});

export interface StubUpstream {
  handler: (request: Request) => Promise<Response>;
  calls: StubCall[];
  /** Calls whose path starts with `prefix`. */
  count(prefix: string): number;
  /** Answers for a path prefix, used in order; the last one repeats. */
  on(prefix: string, ...responders: Responder[]): void;
  issuedTokens: string[];
}

export function createStubUpstream(): StubUpstream {
  const calls: StubCall[] = [];
  const scripts = new Map<string, Responder[]>();
  const issuedTokens: string[] = [];
  let tokenCounter = 0;

  scripts.set('/token', [
    (call) => {
      const form = new URLSearchParams(call.body);
      if (form.get('grant_type') === 'refresh_token' && form.get('refresh_token') === 'revoked') {
        return json({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }, 400);
      }
      const token = `ya29.stub-${++tokenCounter}-secret`;
      issuedTokens.push(token);
      return json({ access_token: token, expires_in: 3599, token_type: 'Bearer' });
    },
  ]);

  async function handler(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const call: StubCall = {
      method: request.method,
      path: url.pathname,
      search: url.searchParams,
      authorization: request.headers.get('authorization'),
      body: request.body ? await request.text() : '',
    };
    calls.push(call);
    const prefix = [...scripts.keys()].filter((p) => call.path.startsWith(p)).sort((a, b) => b.length - a.length)[0];
    const queue = prefix === undefined ? undefined : scripts.get(prefix);
    if (queue === undefined || queue.length === 0) return json({ error: { code: 404, message: 'no stub', status: 'NOT_FOUND' } }, 404);
    const responder = queue.length > 1 ? queue.shift() : queue[0];
    if (!call.path.startsWith('/token') && !call.path.startsWith('/webmaster/') && !call.authorization?.startsWith('Bearer ya29.stub-')) {
      return json({ error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } }, 401);
    }
    return (responder as Responder)(call);
  }

  return {
    handler,
    calls,
    count: (prefix) => calls.filter((c) => c.path.startsWith(prefix)).length,
    on: (prefix, ...responders) => {
      scripts.set(prefix, responders);
    },
    issuedTokens,
  };
}

let cachedKey: string | undefined;
/** A throwaway service-account key (RSA) so the real JWT grant can be signed. */
export function testServiceAccount(email = 'reader@siteline-test.iam.gserviceaccount.com') {
  cachedKey ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { type: 'service_account', client_email: email, private_key: cachedKey, private_key_id: 'k1' };
}

/** Decodes the claims of a JWT grant assertion. */
export function jwtClaims(body: string): Record<string, unknown> {
  const assertion = new URLSearchParams(body).get('assertion') ?? '';
  const payload = assertion.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}
