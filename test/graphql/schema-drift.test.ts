// The printed SDL is checked in; any change to the code-first schema must be printed (`npm run schema:print`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { printSdl } from '../../src/graphql/schema.ts';

describe('schema/schema.graphql', () => {
  it('matches the schema built from the code (run `npm run schema:print` after changing types)', () => {
    const checkedIn = readFileSync(join(import.meta.dirname, '..', '..', 'schema', 'schema.graphql'), 'utf8');
    expect(printSdl()).toBe(checkedIn);
  });
});
