// When a Google grant may be revoked at Google: only when nothing else of the installation uses it.
import { describe, expect, it } from 'vitest';
import { mayRevokeReleasedGrant, mayRevokeUnfinishedFlow } from '../../src/domain/google-grant-release.ts';

describe('google grant release', () => {
  it('an unfinished flow is revoked only for a known account nothing else uses', () => {
    expect(mayRevokeUnfinishedFlow('123', { dataSources: 0, otherFlows: 0 })).toBe(true);
    expect(mayRevokeUnfinishedFlow('123', { dataSources: 1, otherFlows: 0 })).toBe(false);
    expect(mayRevokeUnfinishedFlow('123', { dataSources: 0, otherFlows: 1 })).toBe(false);
    expect(mayRevokeUnfinishedFlow(null, { dataSources: 0, otherFlows: 0 })).toBe(false);
  });

  it('a released grant is revoked only when no data source and no flow uses it', () => {
    expect(mayRevokeReleasedGrant({ dataSources: 0, otherFlows: 0 })).toBe(true);
    expect(mayRevokeReleasedGrant({ dataSources: 2, otherFlows: 0 })).toBe(false);
    expect(mayRevokeReleasedGrant({ dataSources: 0, otherFlows: 1 })).toBe(false);
  });
});
