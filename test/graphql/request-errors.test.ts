// Mistakes in a GraphQL request itself are the caller's: a variable of the wrong type (enum, Int, input object, the
// Period scalar) and a document past a limit (depth, aliases, cost) each come back with a code and a message that
// says what is wrong — HTTP 400 under application/graphql-response+json, 200 under application/json — and are logged
// at info, never as an unexpected error.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging/logger.ts';
import { createProject } from '../../src/store/projects-repository.ts';
import { createAccountWithKey, createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

let rt: TestRuntime;
let key: string;
const lines: { level: number; msg: string; code?: string }[] = [];

beforeAll(async () => {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as (typeof lines)[number]);
      done();
    },
  });
  rt = await createTestRuntime({ logger: createLogger({ level: 'info', destination }) });
  await createProject(rt.store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
  ({ key } = await createAccountWithKey(rt, { email: 'mistakes@example.com', projects: ['shop'] }));
});
afterAll(() => rt.dispose());
beforeEach(() => {
  lines.length = 0;
});

async function post(query: string, variables: Record<string, unknown>, accept = 'application/graphql-response+json') {
  const res = await rt.request('/api/graphql', { method: 'POST', key, headers: { 'content-type': 'application/json', accept }, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };
  return { status: res.status, body };
}

const CASES: { name: string; query: string; variables: Record<string, unknown>; extensions: Record<string, unknown>; message: RegExp }[] = [
  {
    name: 'an enum value that does not exist',
    query: 'query($sp: SearchProvider) { project(key: "shop") { search(sp: $sp) { clicks { value } } } }',
    variables: { sp: 'GOOGLE' },
    extensions: { code: 'invalid_parameter', param: 'sp' },
    message: /Value "GOOGLE" does not exist in "SearchProvider" enum/,
  },
  {
    name: 'a string for an Int',
    query: 'query($limit: Int) { project(key: "shop") { breakdown(dimension: "country", limit: $limit) { totalRows } } }',
    variables: { limit: 'ten' },
    extensions: { code: 'invalid_parameter', param: 'limit' },
    message: /Int cannot represent non-integer value: "ten"/,
  },
  {
    name: 'an enum value in the casing before the typed dialect',
    query: 'query($compare: CompareMode) { project(key: "shop") { summary(compare: $compare) { sessions { value } } } }',
    variables: { compare: 'PREVIOUS' },
    extensions: { code: 'invalid_parameter', param: 'compare' },
    message: /Value "PREVIOUS" does not exist in "CompareMode" enum/,
  },
  {
    name: 'a Period that is not one',
    query: 'query($period: Period) { project(key: "shop") { summary(period: $period) { sessions { value } } } }',
    variables: { period: '29days' },
    extensions: { code: 'invalid_period', param: 'period' },
    message: /Invalid period "29days": expected one of/,
  },
  {
    name: 'a document nested past the depth limit',
    query: `{ __type(name: "Project") { ${'ofType { '.repeat(13)}name${' }'.repeat(13)} } }`,
    variables: {},
    extensions: { code: 'query_too_complex', limit: 'depth', max: 12, found: 15 },
    message: /^The query is nested 15 levels deep; at most 12 levels are allowed\.$/,
  },
  {
    name: 'more aliases than allowed',
    query: `{ ${Array.from({ length: 11 }, (_, i) => `a${i}: projects { totalCount }`).join(' ')} }`,
    variables: {},
    extensions: { code: 'query_too_complex', limit: 'aliases', max: 10, found: 11 },
    message: /^The query uses 11 aliases; at most 10 are allowed/,
  },
  {
    name: 'a static cost past the limit',
    query: `{ projects { nodes { ${'search { clicks { value previous delta deltaPct } impressions { value previous } byProvider { engine1 { clicks { value previous } } engine2 { clicks { value } } } } '.repeat(60)} } } }`,
    variables: {},
    extensions: { code: 'query_too_complex', limit: 'cost', max: 5000 },
    message: /^The query has a static cost of \d+; at most 5000 is allowed/,
  },
];

describe('client mistakes in a GraphQL request', () => {
  it.each(CASES)('$name: a 400 with a code that says what is wrong, logged at info', async ({ query, variables, extensions, message }) => {
    const { status, body } = await post(query, variables);
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    const [first] = body.errors!;
    expect(first!.extensions).toMatchObject(extensions);
    expect(first!.message).toMatch(message);
    expect(first!.message).not.toMatch(/Syntax Error|Unexpected error/);
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    expect(lines.some((l) => l.level === 30 && l.code === extensions.code)).toBe(true);
  });

  it.each(CASES)('$name: the same answer with status 200 under application/json', async ({ query, variables, extensions }) => {
    const { status, body } = await post(query, variables, 'application/json');
    expect(status).toBe(200);
    expect(body.errors![0]!.extensions).toMatchObject(extensions);
  });
});
