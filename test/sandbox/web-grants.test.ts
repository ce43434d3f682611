// The sandbox's grants behave as Google's: one grant per Google account and OAuth client (revoking any token
// revokes them all, other accounts untouched), and at most 100 live refresh tokens per account and client.
import { describe, expect, it } from 'vitest';
import { createWebGrants, REFRESH_TOKENS_PER_ACCOUNT, subjectOf } from '../../src/sandbox/auth/web-grants.ts';

const SCOPES = ['https://www.googleapis.com/auth/analytics.readonly'];
const grantOf = (grants: ReturnType<typeof createWebGrants>, token: string) => grants.readRefreshToken(token)!.grantId;

describe('sandbox web grants', () => {
  it('revoking one token revokes every token of that account and client, not another account’s', () => {
    const grants = createWebGrants({ tokenSecret: 'secret' });
    const first = grants.issueRefreshToken({ clientId: 'c', scopes: SCOPES, account: 'ann@example.com' });
    const second = grants.issueRefreshToken({ clientId: 'c', scopes: SCOPES, account: 'Ann@example.com' });
    const other = grants.issueRefreshToken({ clientId: 'c', scopes: SCOPES, account: 'bob@example.com' });
    const otherClient = grants.issueRefreshToken({ clientId: 'd', scopes: SCOPES, account: 'ann@example.com' });
    grants.revoke(grantOf(grants, second));
    expect(grants.isRevoked(grantOf(grants, first))).toBe(true);
    expect(grants.isRevoked(grantOf(grants, second))).toBe(true);
    expect(grants.isRevoked(grantOf(grants, other))).toBe(false);
    expect(grants.isRevoked(grantOf(grants, otherClient))).toBe(false);
    // A new consent after revocation is a new grant that works.
    const again = grants.issueRefreshToken({ clientId: 'c', scopes: SCOPES, account: 'ann@example.com' });
    expect(grants.isRevoked(grantOf(grants, again))).toBe(false);
  });

  it('the 101st refresh token of an account and client invalidates the oldest only', () => {
    const grants = createWebGrants({ tokenSecret: 'secret' });
    const tokens = Array.from({ length: REFRESH_TOKENS_PER_ACCOUNT + 1 }, () => grants.issueRefreshToken({ clientId: 'c', scopes: SCOPES, account: 'ann@example.com' }));
    expect(grants.isRevoked(grantOf(grants, tokens[0]!))).toBe(true);
    expect(tokens.slice(1).filter((t) => grants.isRevoked(grantOf(grants, t)))).toEqual([]);
  });

  it('an account’s subject is stable, digits only, and differs between accounts', () => {
    expect(subjectOf('ann@example.com')).toMatch(/^\d{21}$/);
    expect(subjectOf('ANN@example.com')).toBe(subjectOf('ann@example.com'));
    expect(subjectOf('bob@example.com')).not.toBe(subjectOf('ann@example.com'));
  });
});
