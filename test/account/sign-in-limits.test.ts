// Sign-in limits under attack: a burst of parallel guesses cannot get past the limit (each attempt is counted
// before the password is checked), with the in-process limiter and with Redis; wrong passwords from one address
// never lock the owner out at another; a successful sign-in does not use up the allowance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_LIMITS } from '../../src/account/web-deps.ts';
import { connectTestRedis, deleteByPrefix, TEST_REDIS_URL, uniquePrefix } from '../cache/redis-helpers.ts';
import { cookiesFrom, createOAuthFixture, form, hiddenField, PASSWORD, type OAuthFixture } from '../oauth/oauth-helpers.ts';

/** One sign-in attempt as if it came from `ip` (the socket address srvx would set). */
async function attempt(fx: OAuthFixture, password: string, ip: string, email = fx.email): Promise<Response> {
  const page = await fx.rt.request('/account/sign-in');
  const body = form({ csrf: hiddenField(await page.text(), 'csrf'), email, password, return_to: '/account' });
  const request = new Request('http://siteline.test/account/sign-in', { method: 'POST', headers: { ...body.headers, cookie: cookiesFrom(page) }, body: body.body });
  Object.defineProperty(request, 'ip', { value: ip });
  return fx.rt.app.request(request);
}

const backends = [
  { name: 'in-process', redisUrl: undefined, skip: false },
  { name: 'Redis', redisUrl: TEST_REDIS_URL, skip: TEST_REDIS_URL === undefined },
];

/** Every wrong password costs a real scrypt check at the production cost (N = 2^17), slow on a busy machine. */
const SCRYPT_HEAVY = { timeout: 180_000 };

describe.each(backends)('sign-in limits ($name)', ({ redisUrl, skip }) => {
  let fx: OAuthFixture;
  const prefix = uniquePrefix();
  beforeAll(async () => {
    if (skip) return;
    fx = await createOAuthFixture({ env: redisUrl ? { REDIS_URL: redisUrl } : {}, shared: { keyPrefix: prefix } });
  });
  afterAll(async () => {
    if (skip) return;
    await fx.rt.dispose();
    if (redisUrl) {
      const redis = await connectTestRedis(redisUrl);
      await deleteByPrefix(redis, prefix);
      redis.disconnect();
    }
  });

  it.skipIf(skip)('checks at most the limit of 40 wrong passwords sent at once; the rest get 429', SCRYPT_HEAVY, async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => attempt(fx, 'wrong-password', '198.51.100.7')));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(SIGN_IN_LIMITS.accountAtIp.points);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - SIGN_IN_LIMITS.accountAtIp.points);
    // The right password from that address is refused too while the window lasts.
    expect((await attempt(fx, PASSWORD, '198.51.100.7')).status).toBe(429);
  });

  it.skipIf(skip)('the owner still signs in from another address while an attacker is locked out', SCRYPT_HEAVY, async () => {
    for (let i = 0; i < SIGN_IN_LIMITS.accountAtIp.points; i += 1) await attempt(fx, 'wrong-password', '203.0.113.9');
    expect((await attempt(fx, 'wrong-password', '203.0.113.9')).status).toBe(429);
    const owner = await attempt(fx, PASSWORD, '192.0.2.44');
    expect(owner.status).toBe(303);
    expect(owner.headers.getSetCookie().some((c) => c.startsWith('siteline_session='))).toBe(true);
  });

  it.skipIf(skip)('successful sign-ins give their point back', SCRYPT_HEAVY, async () => {
    const ip = '192.0.2.80';
    for (let i = 0; i < SIGN_IN_LIMITS.accountAtIp.points - 1; i += 1) expect((await attempt(fx, 'wrong-password', ip)).status).toBe(400);
    for (let i = 0; i < 2; i += 1) expect((await attempt(fx, PASSWORD, ip)).status).toBe(303);
    expect((await attempt(fx, 'wrong-password', ip)).status).toBe(400);
    expect((await attempt(fx, 'wrong-password', ip)).status).toBe(429);
  });
});
