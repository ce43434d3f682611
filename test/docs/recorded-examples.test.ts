// The example answers in the OpenAPI document and on the docs page are real: recorded from the demo by
// `npm run docs:examples`, valid against the response schemas, and re-recorded here to catch drift (the same
// fields and types as the API answers today; values change with the date).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as z from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordExamples, shapeOf } from '../../src/docs/record-examples.ts';
import { RESPONSE_SCHEMAS } from '../../src/openapi/response-schemas.ts';
import { REST_ROUTES } from '../../src/rest/route-table.ts';
import { createExampleRuntime, EXAMPLES_FILE } from '../helpers/example-runtime.ts';

const recorded = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', EXAMPLES_FILE), 'utf8')) as Record<string, unknown>;

describe('recorded example answers', () => {
  it('cover every operation, and each validates against its response schema', () => {
    expect(Object.keys(recorded).sort()).toEqual(REST_ROUTES.map((r) => r.operation).sort());
    for (const [operation, example] of Object.entries(recorded)) {
      const schema = RESPONSE_SCHEMAS[operation] as z.ZodType | undefined;
      if (schema) expect(() => schema.parse(example), operation).not.toThrow();
    }
  });

  describe('against the API today', () => {
    let fresh: Record<string, unknown>;
    let dispose: () => Promise<void>;
    beforeAll(async () => {
      const rt = await createExampleRuntime();
      dispose = () => rt.dispose();
      fresh = await recordExamples(REST_ROUTES, (path, init) => rt.request(path, { ...init, key: rt.demo.apiKey }), rt.funnelKey);
    }, 120_000);
    afterAll(() => dispose());

    it.each(REST_ROUTES.map((r) => r.operation))('%s has not drifted (run npm run docs:examples after changing an answer)', (operation) => {
      expect(shapeOf(fresh[operation])).toEqual(shapeOf(recorded[operation]));
    });
  });
});
