// The printed SDL is checked in; any change to the code-first schema must be printed (`npm run schema:print`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { printInternalSdl, printSdl } from '../../src/graphql/schema.ts';

const checkedIn = (name: string) => readFileSync(join(import.meta.dirname, '..', '..', 'schema', name), 'utf8');

describe('the printed schemas', () => {
  it('schema/schema.graphql matches the public schema built from the code (run `npm run schema:print` after changing types)', () => {
    expect(printSdl()).toBe(checkedIn('schema.graphql'));
  });

  it('schema/internal.graphql matches the full schema the stored operations run against', () => {
    expect(printInternalSdl()).toBe(checkedIn('internal.graphql'));
  });
});
