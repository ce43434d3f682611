// Creating an account costs a full scrypt hash (about 128 MiB and a few hundred milliseconds), so the forms that
// create one from outside (open sign-up, first-run setup) are counted before anything is hashed: per client address
// and for the whole installation. A refusal is cheap: no hash, no database write.
import type { H3Event } from 'h3';
import { clientIpOf } from '../http/client-ip.ts';
import type { LimitPolicy } from '../limits/limit-policy.ts';
import type { WebDeps } from '../account/web-deps.ts';

export const SIGNUP_LIMITS: { ip: LimitPolicy; all: LimitPolicy } = {
  ip: { name: 'signup_ip', points: 10, windowSec: 3600 },
  all: { name: 'signup_all', points: 30, windowSec: 600 },
};

/** Counts one attempt; the seconds to wait when over a limit, else undefined. */
export async function spendSignupAttempt(deps: Pick<WebDeps, 'limits'>, event: H3Event): Promise<number | undefined> {
  const states = await Promise.all([deps.limits.consumePolicy(SIGNUP_LIMITS.ip, clientIpOf(event)), deps.limits.consumePolicy(SIGNUP_LIMITS.all, 'all')]);
  const blocked = states.find((state) => !state.allowed);
  return blocked ? Math.max(1, Math.ceil(blocked.resetMs / 1000)) : undefined;
}
