// Hostile values for the fuzz suite: what attackers and broken clients send — injection strings, traversal,
// control characters, huge and far-out numbers, far-future periods, prototype keys — mixed with values from the
// document itself (enums, examples, defaults) so requests also get past validation into the deeper layers.
import fc from 'fast-check';

const NASTY = [
  '',
  ' ',
  '%',
  '%00',
  '%ff',
  '\u0000',
  '\u202e',
  '../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  "' OR 1=1 --",
  '"; DROP TABLE api_keys; --',
  '<script>alert(1)</script>',
  '${jndi:ldap://x/a}',
  '{{7*7}}',
  'http://169.254.169.254/latest/meta-data/',
  '//evil.example/x',
  '\\\\evil\\share',
  '\r\nX-Injected: 1',
  '-1',
  '0',
  '1e308',
  '-0',
  'NaN',
  'Infinity',
  '9'.repeat(400),
  'a'.repeat(5000),
  '__proto__',
  'constructor',
  'toString',
  'custom_9995-01-01_9995-01-02',
  'custom_9999-12-31_9999-12-31',
  'custom_0000-00-00_9999-99-99',
  'custom_2026-02-30_2026-03-01',
  'custom__',
  'today',
  '365days',
  'pagePath=~(',
  'country==Germany;;,,',
  'pagePath=~(a+)+$',
  'query==' + '\\'.repeat(50),
  '-',
  '--sessions',
  'sessions,'.repeat(40),
  '😀'.repeat(50),
  'ünïcödé',
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
);

/** A value for one parameter: hostile most of the time, sometimes one the document offers. */
export function parameterValue(schema: { enum?: unknown[]; default?: unknown; example?: unknown } | undefined, example: unknown): fc.Arbitrary<string> {
  const offered = [...(schema?.enum ?? []), schema?.default, example].filter((v) => v !== undefined).map(String);
  return offered.length ? fc.oneof({ weight: 3, arbitrary: hostileString }, { weight: 2, arbitrary: fc.constantFrom(...offered) }) : hostileString;
}

/** JSON bodies for POST operations: any JSON, or the documented shape with hostile fields. */
export function hostileBody(example: Record<string, unknown> | undefined): fc.Arbitrary<string> {
  const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));
  const documented = <T>(value: T, hostile: fc.Arbitrary<unknown>) => fc.oneof({ weight: 2, arbitrary: fc.constant(value) }, { weight: 1, arbitrary: hostile });
  const shaped = fc
    .record(
      {
        project_key: documented(example?.project_key ?? 'acme-shop', hostileString),
        path: documented(example?.path ?? '', hostileString),
        body: documented(example?.body ?? {}, fc.jsonValue({ maxDepth: 3 })),
        extra: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: ['project_key', 'path'] },
    )
    .map((v) => JSON.stringify(v));
  const broken = fc.constantFrom('{', 'null', '[]', '"x"', '{"project_key": }', '\u0000', '{"a":'.repeat(200), `{"pad": "${'x'.repeat(70 * 1024)}"}`);
  return fc.oneof({ weight: 1, arbitrary: json }, { weight: 4, arbitrary: shaped }, { weight: 1, arbitrary: broken });
}
