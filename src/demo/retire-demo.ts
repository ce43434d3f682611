// A data folder switched to SITELINE_SANDBOX=off keeps its demo rows; the demo account's known password and
// printed key must not keep working against production data. This disables them, once, with a log line saying so.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { ApiKeyService } from '../auth/api-keys.ts';
import type { Logger } from '../logging/logger.ts';
import { findAccountByEmail, setAccountPassword } from '../store/accounts-repository.ts';
import { listLiveGrantsForAccount, revokeGrant } from '../store/oauth-grants-repository.ts';
import type { Database } from '../store/schema.ts';
import { appendAudit } from '../store/audit-repository.ts';
import { DEMO_EMAIL, DEMO_KEY_FILE, DEMO_PASSWORD_FILE, DEMO_RETIRED_ACTION } from './seed-demo.ts';

export interface RetireDemoInput {
  db: Kysely<Database>;
  apiKeys: ApiKeyService;
  dataDir: string;
  logger: Pick<Logger, 'warn'>;
}

export interface RetiredDemo {
  keysRevoked: number;
  grantsRevoked: number;
  passwordReset: boolean;
}

/**
 * Revokes the demo account's API keys and OAuth grants, ends its sessions and replaces its password with an
 * unknown one (the password file goes too, so turning the sandbox back on issues a fresh one). Its projects stay.
 */
export async function retireDemo(input: RetireDemoInput): Promise<RetiredDemo | undefined> {
  const account = await findAccountByEmail(input.db, DEMO_EMAIL);
  if (!account) return undefined;
  const active = (await input.apiKeys.list(account.id)).filter((key) => key.status === 'active');
  for (const key of active) await input.apiKeys.revoke(account.id, key.id);
  const now = new Date();
  const grants = await listLiveGrantsForAccount(input.db, account.id, now);
  for (const grant of grants) await revokeGrant(input.db, grant.id, now, 'sandbox turned off');
  await input.db.deleteFrom('account_sessions').where('account_id', '=', account.id).execute();
  const passwordFile = join(input.dataDir, DEMO_PASSWORD_FILE);
  // Replaced whether or not this folder held the password file: another replica may have written it.
  const passwordReset = await rm(passwordFile).then(() => true, () => false);
  await setAccountPassword(input.db, account.id, randomBytes(24).toString('base64url'));
  if (active.length > 0 || grants.length > 0 || passwordReset) await appendAudit(input.db, { accountId: account.id, action: DEMO_RETIRED_ACTION, subject: DEMO_EMAIL });
  await rm(join(input.dataDir, DEMO_KEY_FILE), { force: true });
  const retired = { keysRevoked: active.length, grantsRevoked: grants.length, passwordReset };
  if (active.length > 0 || grants.length > 0 || passwordReset) {
    input.logger.warn(
      { account: DEMO_EMAIL, ...retired },
      `SITELINE_SANDBOX is off: disabled the demo account ${DEMO_EMAIL} (${active.length} API key(s) and ${grants.length} OAuth grant(s) revoked, password replaced); its projects remain`,
    );
  }
  return retired;
}
