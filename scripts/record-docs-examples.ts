// npm run docs:examples — records one real answer per REST operation from the demo (in-process sandbox, demo
// account and projects as `npm start` seeds them) into src/openapi/recorded-examples.json. A test fails when the
// recorded answers no longer match what the API returns (see test/docs/recorded-examples.test.ts).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { recordExamples } from '../src/docs/record-examples.ts';
import { REST_ROUTES } from '../src/rest/route-table.ts';
import { createExampleRuntime, EXAMPLES_FILE } from '../test/helpers/example-runtime.ts';

const rt = await createExampleRuntime();
try {
  const examples = await recordExamples(REST_ROUTES, (path, init) => rt.request(path, { ...init, key: rt.demo.apiKey }), rt.funnelKey);
  await writeFile(join(import.meta.dirname, '..', EXAMPLES_FILE), `${JSON.stringify(examples, null, 2)}\n`);
  console.log(`recorded ${Object.keys(examples).length} examples into ${EXAMPLES_FILE}`);
} finally {
  await rt.dispose();
}
