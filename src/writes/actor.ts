// Who performs a write, as the write service and the audit log see it: an account (through the dashboard, MCP,
// GraphQL or an API call) or the operator: running the `siteline` CLI on the server, or starting the server (which
// seeds the demo).
import type { Principal } from '../auth/principal.ts';

/** The surface a write came through; recorded in its audit entry. */
export type Via = 'dashboard' | 'mcp' | 'graphql' | 'cli' | 'setup' | 'signup' | 'start';

export type Actor =
  | { kind: 'account'; accountId: string; via: Via; /** The API key or OAuth grant it came with, if any. */ credentialId?: string }
  | { kind: 'operator'; via: 'cli' | 'start' };

export const OPERATOR: Actor = { kind: 'operator', via: 'cli' };
/** The server itself at start (the demo's seeding): no account acts. */
export const AT_START: Actor = { kind: 'operator', via: 'start' };

export function accountActor(accountId: string, via: Via): Actor {
  return { kind: 'account', accountId, via };
}

/** The account behind an API key or OAuth token (sessions carry a `session:` credential, which is not recorded). */
export function actorOf(principal: Principal, via: Via): Actor {
  const credential = principal.credentialId.startsWith('session:') ? {} : { credentialId: principal.credentialId };
  return { kind: 'account', accountId: principal.accountId, via, ...credential };
}

/** The account id the audit log records (null for the operator). */
export function actorAccountId(actor: Actor): string | null {
  return actor.kind === 'account' ? actor.accountId : null;
}
