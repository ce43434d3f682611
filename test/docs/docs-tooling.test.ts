// The pieces the docs test and `npm run docs:record` are made of: reading documented curl commands as a shell
// would, finding examples and their output blocks, trimming recorded output, comparing shapes.
import { describe, expect, it } from 'vitest';
import { parseCurl } from '../../scripts/docs/curl-command.ts';
import { findExamples } from '../../scripts/docs/markdown-examples.ts';
import { documentedValue, renderOutput, shapeMismatches } from '../../scripts/docs/recorded-output.ts';
import { isDemoCommand } from '../../scripts/docs/run-example.ts';

const vars = { SITELINE_KEY: 'sl_live_demo' };

describe('parseCurl', () => {
  it('reads quotes, continuations, the key variable and the key file', () => {
    const request = parseCurl(`curl -X POST localhost:3000/api/mcp -H "Authorization: Bearer $(cat data/demo-api-key)" \\\n  -H 'Content-Type: application/json' -d '{"q":"a \\"b\\""}' | jq .`, vars);
    expect(request).toEqual({
      method: 'POST',
      url: 'http://localhost:3000/api/mcp',
      headers: { authorization: 'Bearer sl_live_demo', 'content-type': 'application/json' },
      body: '{"q":"a \\"b\\""}',
    });
    expect(parseCurl('curl -s -H "Authorization: Bearer ${SITELINE_KEY}" "localhost:3000/x?a=1&b=2"', vars)).toMatchObject({ method: 'GET', url: 'http://localhost:3000/x?a=1&b=2' });
  });

  it('refuses what a reader could not run as written', () => {
    expect(() => parseCurl('curl -H "Authorization: Bearer $TOKEN" localhost:3000/x', vars)).toThrow('$TOKEN');
    expect(() => parseCurl('curl -o out.json localhost:3000/x', vars)).toThrow('-o');
    expect(() => parseCurl("curl 'localhost:3000/x", vars)).toThrow('Unterminated');
  });
});

describe('findExamples', () => {
  it('finds each curl with its line, and the output block after a single-command block', () => {
    const markdown = ['# T', '```sh', 'export K=1', 'curl a/1 \\', '  -H "x: y"', '```', '<!-- output keep="rows=1" -->', '```json', '{"rows":[1]}', '```', '<!-- /output -->', '```sh', 'curl a/2', 'curl a/3', '```', ''].join('\n');
    const examples = findExamples('doc.md', markdown);
    expect(examples.map((e) => [e.line, e.command.split('\n')[0]])).toEqual([[4, 'curl a/1 \\'], [13, 'curl a/2'], [14, 'curl a/3']]);
    expect(examples[0]!.output).toMatchObject({ options: { keep: 'rows=1' }, language: 'json', text: '{"rows":[1]}\n' });
    expect(examples[1]!.output).toBeUndefined();
  });
});

describe('recorded output', () => {
  const json = (value: unknown, contentType = 'application/json') => ({ status: 200, contentType, text: JSON.stringify(value) });

  it('trims where the marker says and says so', () => {
    const out = renderOutput(json({ rows: [1, 2, 3], meta: { note: 'a long message here' } }), { keep: 'rows=1', strings: '6' });
    expect(out.language).toBe('jsonc');
    expect(out.text).toBe('// trimmed by npm run docs:record: rows 1 of 3 shown; 1 long string cut at 6 characters\n{"rows":[1],"meta":{"note":"a long…"}}\n');
    expect(renderOutput(json({ a: 1 }), {})).toEqual({ language: 'json', text: '{"a":1}\n' });
    expect(renderOutput({ status: 200, contentType: 'text/csv', text: 'date,x\r\n1,2\r\n3,4\r\n' }, { lines: '2' }).text).toBe('date,x\n1,2\n… (trimmed by npm run docs:record: 2 of 3 lines shown)\n');
  });

  it('compares shapes, not numbers: missing keys and changed kinds fail, extra fields and nulls do not', () => {
    const documented = documentedValue('jsonc', '// trimmed\n{"rows":[{"query":"a","clicks":1}],"meta":{"warnings":[]}}');
    expect(shapeMismatches(documented, { rows: [{ query: 'b', clicks: 9, extra: true }], meta: { warnings: [{ code: 'x' }] } })).toEqual([]);
    expect(shapeMismatches(documented, { rows: [{ query: 'b', clicks: null }], meta: { warnings: [] } })).toEqual([]);
    expect(shapeMismatches(documented, { rows: [{ query: 'b', clicks: '9' }], meta: {} })).toEqual(['$.rows[0].clicks: string instead of number', '$.meta.warnings is missing']);
    expect(shapeMismatches('date,sessions\n1,2', 'date,value\r\n1,2')).toEqual(['header row "date,value" instead of "date,sessions"']);
  });
});

describe('isDemoCommand', () => {
  it('runs commands for the demo API and sandbox, not for a reader\'s own addresses', () => {
    const example = (command: string) => ({ file: 'x.md', line: 1, command });
    expect(isDemoCommand(example('curl localhost:3000/healthz'))).toBe(true);
    expect(isDemoCommand(example('curl "http://127.0.0.1:3000/api/v1/projects/list"'))).toBe(true);
    expect(isDemoCommand(example('curl -X DELETE localhost:4010/__sandbox/faults'))).toBe(true);
    expect(isDemoCommand(example('curl localhost:3001/readyz'))).toBe(false);
    expect(isDemoCommand(example('curl -H "Authorization: Bearer $TOKEN" https://siteline.example.com/api/v1/projects/list'))).toBe(false);
  });
});
