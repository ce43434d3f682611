// When Siteline may revoke a Google grant at Google. Revocation there removes the whole grant of one Google account
// for the OAuth client — every refresh token of it, so every project connected through that account. Siteline
// therefore revokes only what nothing else of its own still uses. Pure: the caller counts the holders.

/** What else of this installation holds tokens of one Google account's grant. */
export interface GrantHolders {
  /** Data sources (of any project) whose credential is this grant's. */
  dataSources: number;
  /** Other unfinished "Connect Google" flows holding tokens of the same Google account. */
  otherFlows: number;
}

/**
 * An unfinished flow (abandoned on the picker, answered twice, or its starter no longer allowed) holds a fresh
 * token of the account's grant: revoking it is safe only when no data source and no other flow uses that grant.
 * An unknown account (no identity came back) is never revoked — its token expires unused after six months.
 */
export function mayRevokeUnfinishedFlow(subject: string | null, holders: GrantHolders): boolean {
  return subject !== null && holders.dataSources === 0 && holders.otherFlows === 0;
}

/** A stored grant whose last data source was disconnected: revoked unless a flow is about to use it. */
export function mayRevokeReleasedGrant(holders: GrantHolders): boolean {
  return holders.dataSources === 0 && holders.otherFlows === 0;
}
