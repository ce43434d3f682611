// Names of the bus channels, so publishers and subscribers in different modules cannot drift apart.

export const BUS_CHANNELS = {
  /** Message: `{ keyId: string }`; every instance drops the key from its auth cache (within 1 s). */
  apiKeyRevoked: 'auth:api-key-revoked',
  /** Message: `{ keys: string[] }`; every instance deletes these entries from its in-process cache layer. */
  cacheInvalidate: 'cache:invalidate',
  /** Message: `{ table: string }`; a write changed what cached answers may show (projects, grants, funnels, data sources). */
  catalogueChanged: 'cache:catalogue-changed',
} as const;
