// On real PostgreSQL, twenty parallel exchanges of one authorization code: exactly one gets tokens, and the
// replays always find and revoke the grant it created (code, grant and link are written in one transaction).
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findGrant } from '../../src/store/oauth-grants-repository.ts';
import { createFreshDatabase, TEST_DATABASE_URL, type FreshDatabase } from '../store/databases.ts';
import { authorizeQuery, consent, createOAuthFixture, pkce, registerClient, RESOURCE, signIn, tokenRequest, type OAuthFixture, type Tokens } from './oauth-helpers.ts';

describe.skipIf(!TEST_DATABASE_URL)('authorization code replay on PostgreSQL', () => {
  let database: FreshDatabase;
  let fx: OAuthFixture;
  beforeAll(async () => {
    database = await createFreshDatabase('postgres');
    fx = await createOAuthFixture({ env: { DATABASE_URL: database.url } });
  });
  afterAll(async () => {
    await fx?.rt.dispose();
    await database?.cleanup();
  });

  it('20 parallel exchanges, 8 rounds: one 200, the rest invalid_grant, and the grant is always revoked', async () => {
    const cookie = await signIn(fx.rt, fx.email);
    const client = await registerClient(fx.rt);
    for (let round = 0; round < 8; round += 1) {
      const { verifier, challenge } = pkce();
      const code = (await consent(fx.rt, cookie, authorizeQuery(client, challenge))).searchParams.get('code')!;
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          tokenRequest(fx.rt, { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: client.client_id, redirect_uri: client.redirect_uris[0], resource: RESOURCE }),
        ),
      );
      const winners = answers.filter((r) => r.status === 200);
      expect(winners).toHaveLength(1);
      expect(answers.filter((r) => r.status === 400)).toHaveLength(19);
      const tokens = (await winners[0]!.json()) as Tokens;
      const grant = await findGrant(fx.rt.store.db, decodeJwt(tokens.access_token).gid as string);
      expect(grant?.revokedReason, `round ${round}`).toBe('authorization code reused');
    }
  }, 60_000);
});
