import { describe, expect, it, vi } from 'vitest';
import { createAuthenticator, parseBearer } from '../../src/auth/authenticate.ts';
import { generateApiKey } from '../../src/auth/api-key-format.ts';
import type { Principal } from '../../src/auth/principal.ts';
import { AppError } from '../../src/errors/app-error.ts';
import { createLimits } from '../../src/limits/create-limits.ts';
import { expectAppError } from '../domain/expect-app-error.ts';

const VALID = generateApiKey();
const PRINCIPAL: Principal = { kind: 'api_key', accountId: 'acct_1', credentialId: 'key_1', scopes: new Set(['read']), projectKeys: null };

/** A stand-in key service: VALID is the only good key. */
function fakeKeys() {
  return {
    verify: vi.fn(async (token: string) => {
      if (token === VALID) return PRINCIPAL;
      throw new AppError('invalid_api_key', 'The API key is invalid, expired or revoked.', { headers: { 'WWW-Authenticate': 'Bearer realm="siteline", error="invalid_token"' } });
    }),
  };
}

/** The app's own limits (in-process), with `points` failed authentications per IP a minute (the default is 30). */
const limitsAllowing = (points = 30) => createLimits({ config: { failedAuth: { name: 'auth', points, windowSec: 60 } } });

const request = (headers: Record<string, string> = {}, url = 'http://localhost/api/v1/projects/list') => new Request(url, { headers });

/** What a refusal rejects with (the authenticator answers a known key at once, refusals always as a rejection). */
async function failure(attempt: unknown): Promise<AppError> {
  const error = await Promise.resolve(attempt).then(() => undefined, (e: unknown) => e);
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('authenticate', () => {
  it('accepts a valid key with a case-insensitive Bearer scheme', async () => {
    const authenticate = createAuthenticator({ apiKeys: fakeKeys(), failures: limitsAllowing() });
    await expect(authenticate(request({ authorization: `Bearer ${VALID}` }), '10.0.0.1')).resolves.toBe(PRINCIPAL);
    await expect(authenticate(request({ authorization: `bearer ${VALID}` }), '10.0.0.1')).resolves.toBe(PRINCIPAL);
  });

  it('answers a key the service recognises at once, and any other spelling through verify', async () => {
    const keys = { ...fakeKeys(), recognise: vi.fn((token: string) => (token === VALID ? PRINCIPAL : undefined)) };
    const authenticate = createAuthenticator({ apiKeys: keys, failures: limitsAllowing() });
    expect(authenticate(request({ authorization: `Bearer ${VALID}` }), '10.0.0.1')).toBe(PRINCIPAL);
    expect(keys.verify).not.toHaveBeenCalled();
    // A lower-case scheme is still a valid header: it takes the full parse and the service's verify.
    await expect(authenticate(request({ authorization: `bearer ${VALID}` }), '10.0.0.1')).resolves.toBe(PRINCIPAL);
    expect(keys.verify).toHaveBeenCalledTimes(1);
    // A refusal is always a rejection, never a throw.
    const refused = authenticate(request({ authorization: 'Bearer sl_live_unknown' }), '10.0.0.1');
    expect(refused).toBeInstanceOf(Promise);
    expect(await failure(refused)).toMatchObject({ status: 401 });
  });

  it('answers 401 missing_credentials without a header, with a realm challenge', async () => {
    const error = await failure(createAuthenticator({ apiKeys: fakeKeys(), failures: limitsAllowing() })(request(), '10.0.0.1'));
    expect(error).toMatchObject({ code: 'missing_credentials', status: 401 });
    expect(error.headers['WWW-Authenticate']).toBe('Bearer realm="siteline"');
  });

  it('ignores keys in the query string', async () => {
    const keys = fakeKeys();
    const error = await failure(createAuthenticator({ apiKeys: keys, failures: limitsAllowing() })(request({}, `http://localhost/api/v1/projects/list?api_key=${VALID}`), '10.0.0.1'));
    expect(error.code).toBe('missing_credentials');
    expect(keys.verify).not.toHaveBeenCalled();
  });

  it('refuses other schemes and malformed bearer values', async () => {
    const authenticate = createAuthenticator({ apiKeys: fakeKeys(), failures: limitsAllowing() });
    expect((await failure(authenticate(request({ authorization: `Basic ${btoa('a:b')}` }), 'ip'))).code).toBe('missing_credentials');
    expect((await failure(authenticate(request({ authorization: `Bearer ${VALID} extra` }), 'ip'))).code).toBe('invalid_token');
    expect((await failure(authenticate(request({ authorization: 'Bearer' }), 'ip'))).code).toBe('invalid_token');
    expect((await failure(authenticate(request({ authorization: `Bearer  ${VALID},x` }), 'ip'))).code).toBe('invalid_token');
  });

  it('sends sl_live_ tokens to the key service: a bad key is invalid_api_key with error="invalid_token"', async () => {
    const keys = fakeKeys();
    const error = await failure(createAuthenticator({ apiKeys: keys, failures: limitsAllowing() })(request({ authorization: 'Bearer sl_live_wrong' }), 'ip'));
    expect(error).toMatchObject({ code: 'invalid_api_key', status: 401 });
    expect(error.headers['WWW-Authenticate']).toBe('Bearer realm="siteline", error="invalid_token"');
    expect(keys.verify).toHaveBeenCalledWith('sl_live_wrong');
  });

  it('sends other bearer tokens to the OAuth hook, or rejects them as invalid_token without one', async () => {
    const keys = fakeKeys();
    const oauth: Principal = { ...PRINCIPAL, kind: 'oauth', credentialId: 'tok_1' };
    const verifyAccessToken = vi.fn(async () => oauth);
    await expect(createAuthenticator({ apiKeys: keys, failures: limitsAllowing(), verifyAccessToken })(request({ authorization: 'Bearer eyJhbGciOi.x.y' }), 'ip')).resolves.toBe(oauth);
    expect(verifyAccessToken).toHaveBeenCalledWith('eyJhbGciOi.x.y', expect.any(Request));
    const error = await failure(createAuthenticator({ apiKeys: keys, failures: limitsAllowing() })(request({ authorization: 'Bearer eyJhbGciOi.x.y' }), 'ip'));
    expect(error.code).toBe('invalid_token');
    expect(error.headers['WWW-Authenticate']).toBe('Bearer realm="siteline", error="invalid_token"');
    expect(keys.verify).not.toHaveBeenCalled();
  });

  it('limits failed attempts to 30 per minute per IP, and never refuses a valid key', async () => {
    const keys = fakeKeys();
    const authenticate = createAuthenticator({ apiKeys: keys, failures: limitsAllowing() });
    const bad = request({ authorization: 'Bearer sl_live_guess' });
    for (let i = 0; i < 30; i += 1) expect((await failure(authenticate(bad, '203.0.113.9'))).code).toBe('invalid_api_key');
    const limited = await failure(authenticate(bad, '203.0.113.9'));
    expect(limited).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(Number(limited.headers['Retry-After'])).toBeGreaterThan(0);
    expect(Number(limited.headers['Retry-After'])).toBeLessThanOrEqual(60);
    // Someone else's failures on a shared address (NAT, a hosted MCP client) must not lock a valid caller out.
    await expect(authenticate(request({ authorization: `Bearer ${VALID}` }), '203.0.113.9')).resolves.toBe(PRINCIPAL);
    // Another IP is unaffected; requests without credentials do not count.
    await expect(authenticate(request({ authorization: `Bearer ${VALID}` }), '198.51.100.7')).resolves.toBe(PRINCIPAL);
    for (let i = 0; i < 40; i += 1) expect((await failure(authenticate(request(), '192.0.2.1'))).code).toBe('missing_credentials');
    await expect(authenticate(request({ authorization: `Bearer ${VALID}` }), '192.0.2.1')).resolves.toBe(PRINCIPAL);
  });

  it('counts failures in the limits it is given', async () => {
    const authenticate = createAuthenticator({ apiKeys: fakeKeys(), failures: limitsAllowing(2) });
    const bad = request({ authorization: 'Bearer sl_live_guess' });
    expect((await failure(authenticate(bad, 'ip'))).code).toBe('invalid_api_key');
    expect((await failure(authenticate(bad, 'ip'))).code).toBe('invalid_api_key');
    expect((await failure(authenticate(bad, 'ip'))).code).toBe('rate_limited');
  });
});

describe('authenticate with an injected guard', () => {
  it('asks the guard only after a failed verification, and reports only 401 failures to it', async () => {
    const events: string[] = [];
    let blocked = false;
    const failures = {
      assertAuthAllowed: vi.fn(async (ip: string) => {
        events.push(`assert:${ip}`);
        if (blocked) throw new AppError('rate_limited', 'slow down', { headers: { 'Retry-After': '7' } });
      }),
      recordAuthFailure: vi.fn(async (ip: string) => events.push(`fail:${ip}`)),
    };
    const authenticate = createAuthenticator({ apiKeys: fakeKeys(), failures });
    await authenticate(request({ authorization: `Bearer ${VALID}` }), 'a');
    await failure(authenticate(request({ authorization: 'Bearer sl_live_bad' }), 'a'));
    await failure(authenticate(request(), 'a'));
    expect(events).toEqual(['assert:a', 'fail:a']);
    blocked = true;
    await expect(authenticate(request({ authorization: `Bearer ${VALID}` }), 'a')).resolves.toBe(PRINCIPAL);
    const error = await failure(authenticate(request({ authorization: 'Bearer sl_live_bad' }), 'a'));
    expect(error.headers['Retry-After']).toBe('7');
  });
});

describe('parseBearer', () => {
  it('returns exactly the one token', () => {
    expect(parseBearer(`Bearer ${VALID}`)).toBe(VALID);
    expect(parseBearer('BEARER abc.def-ghi_jkl~mno+p/q==')).toBe('abc.def-ghi_jkl~mno+p/q==');
  });
});

describe('parseBearer', () => {
  it('takes the token of a Bearer header, surrounding spaces ignored', () => {
    expect(parseBearer(`  Bearer ${VALID}  `)).toBe(VALID);
  });

  it.each([
    ['no header', null],
    ['an empty header', ''],
    ['a blank header', '   '],
  ])('%s: missing_credentials (401) saying how to send a key', (_name, header) => {
    expectAppError(() => parseBearer(header), { code: 'missing_credentials', status: 401 });
  });

  it.each([
    ['Basic', 'Basic dXNlcjpwYXNz'],
    ['a scheme merely starting with Bearer', `Bearerish ${VALID}`],
    ['a token without a scheme', ` x Bearer ${VALID}`],
  ])('%s: missing_credentials naming the Bearer scheme', (_name, header) => {
    expectAppError(() => parseBearer(header), { code: 'missing_credentials', status: 401, includes: ['Only Bearer authentication is supported'] });
  });

  it('a Bearer header without a usable token is an invalid token (401)', () => {
    expectAppError(() => parseBearer('Bearer'), { code: 'invalid_token', status: 401, includes: ['The bearer token is invalid or expired.'] });
    expectAppError(() => parseBearer('  bearer   '), { code: 'invalid_token', status: 401 });
  });
});

describe('failed-attempt limit', () => {
  it('refuses an address at its limit with 429 and a whole-second Retry-After of at least 1', async () => {
    const authenticate = createAuthenticator({ apiKeys: fakeKeys(), failures: limitsAllowing(2) });
    for (let i = 0; i < 2; i++) expect((await failure(authenticate(request({ authorization: 'Bearer nope' }), '10.9.9.9'))).status).toBe(401);
    const limited = await failure(authenticate(request({ authorization: 'Bearer nope' }), '10.9.9.9'));
    expect(limited).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(Number(limited.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(limited.message).toMatch(/^Too many failed authentications from this address: at most 2 per 60 s\. Retry after \d+ s\.$/);
    // A valid key from the same address still works, and another address is not affected.
    await expect(authenticate(request({ authorization: `Bearer ${VALID}` }), '10.9.9.9')).resolves.toBe(PRINCIPAL);
    expect((await failure(authenticate(request({ authorization: 'Bearer nope' }), '10.9.9.8'))).status).toBe(401);
  });
});

describe('what counts as a failed attempt', () => {
  it('a blank Authorization header is a missing credential, never counted against the address', async () => {
    const authenticate = createAuthenticator({ apiKeys: fakeKeys(), failures: limitsAllowing(2) });
    for (let i = 0; i < 5; i++) {
      const error = await failure(authenticate(request({ authorization: '   ' }), '10.7.7.7'));
      expect(error).toMatchObject({ code: 'missing_credentials', status: 401 });
      expect(error.message).toBe('Send your API key as `Authorization: Bearer <key>`.');
    }
    expect((await failure(authenticate(request({ authorization: 'Bearer nope' }), '10.7.7.7'))).code).toBe('invalid_token');
    expectAppError(() => parseBearer('  '), { code: 'missing_credentials', status: 401, includes: ['Send your API key'] });
  });

  it('a key service that cannot answer (503) is not a failed attempt', async () => {
    const recordAuthFailure = vi.fn(async () => undefined);
    const apiKeys = { verify: async () => Promise.reject(new AppError('dependency_unavailable', 'database away')) };
    const authenticate = createAuthenticator({ apiKeys, failures: { assertAuthAllowed: async () => undefined, recordAuthFailure } });
    expect((await failure(authenticate(request({ authorization: `Bearer ${VALID}` }), 'a'))).code).toBe('dependency_unavailable');
    expect(recordAuthFailure).not.toHaveBeenCalled();
  });

  it('concurrent failures are all counted: the next attempt is refused as rate_limited with the remaining window', async () => {
    const authenticate = createAuthenticator({ apiKeys: fakeKeys(), failures: limitsAllowing(1) });
    const errors = await Promise.all(Array.from({ length: 4 }, () => failure(authenticate(request({ authorization: 'Bearer nope' }), '10.8.8.8'))));
    expect(errors.map((e) => e.status)).toEqual([401, 401, 401, 401]);
    const limited = await failure(authenticate(request({ authorization: 'Bearer nope' }), '10.8.8.8'));
    expect(limited.code).toBe('rate_limited');
    expect(Number(limited.headers['Retry-After'])).toBeGreaterThan(1);
  });
});

