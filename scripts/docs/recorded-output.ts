// What a documented example's output block holds, and how a live answer is checked against it: recorded bodies
// are trimmed where the marker says so (and say so), and compared by shape, never by the demo's numbers.
import type { DocResponse } from './docs-demo.ts';

export interface RenderedOutput {
  language: string;
  text: string;
}

/** The answer as a value: JSON, the last message of an event stream, or text (CSV and the like). */
export function bodyOf(response: DocResponse): unknown {
  if (/json/.test(response.contentType)) return JSON.parse(response.text);
  if (response.contentType.startsWith('text/event-stream')) {
    const data = response.text.split('\n').filter((line) => line.startsWith('data: ')).at(-1);
    if (data === undefined) throw new Error('An event stream without a data line');
    return JSON.parse(data.slice('data: '.length));
  }
  return response.text;
}

/** The output block for a live answer, trimmed as the marker's `keep`, `strings`, `match` and `lines` options ask. */
export function renderOutput(response: DocResponse, options: Record<string, string>): RenderedOutput {
  const body = bodyOf(response);
  const notes: string[] = [];
  if (typeof body === 'string') {
    const all = body.trimEnd().split(/\r?\n/);
    const match = options.match === undefined ? undefined : new RegExp(options.match);
    const lines = match ? all.filter((line) => match.test(line)) : all;
    const keep = Math.min(lines.length, Number(options.lines ?? lines.length));
    const text = lines.slice(0, keep).join('\n');
    const language = response.contentType.startsWith('text/csv') ? 'csv' : 'text';
    const note = keep < all.length ? `\n… (trimmed by npm run docs:record: ${keep} of ${all.length} lines shown${match ? `, those matching ${options.match}` : ''})` : '';
    return { language, text: `${text}${note}\n` };
  }
  const trimmed = trimValue(body, options, notes);
  const lines = [
    ...(response.contentType.startsWith('text/event-stream') ? ['// the data line of the event stream, as JSON'] : []),
    ...(notes.length ? [`// trimmed by npm run docs:record: ${notes.join('; ')}`] : []),
  ];
  const header = lines.map((line) => `${line}\n`).join('');
  return { language: header ? 'jsonc' : 'json', text: `${header}${compactJson(trimmed)}\n` };
}

function trimValue(body: unknown, options: Record<string, string>, notes: string[]): unknown {
  let value = structuredClone(body);
  for (const rule of (options.keep ?? '').split(',').filter(Boolean)) {
    const [path, count] = rule.split('=') as [string, string];
    value = keepAt(value, path.split('.'), Number(count), path, notes);
  }
  const maxString = options.strings === undefined ? undefined : Number(options.strings);
  if (maxString !== undefined) {
    let cut = 0;
    value = mapStrings(value, (text) => (text.length > maxString ? (cut++, `${text.slice(0, maxString)}…`) : text));
    if (cut) notes.push(`${cut} long string${cut > 1 ? 's' : ''} cut at ${maxString} characters`);
  }
  return value;
}

/** Cuts the array or object at `path` (segments may be `*`) to its first `count` entries, noting what was left out. */
function keepAt(value: unknown, path: string[], count: number, label: string, notes: string[]): unknown {
  if (value === null || typeof value !== 'object') return value;
  const [head, ...rest] = path;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  const touched = entries.map(([key, inner]) => [key, head === '*' || head === key ? (rest.length ? keepAt(inner, rest, count, label, notes) : cut(inner, count, label, notes)) : inner] as const);
  return Array.isArray(value) ? touched.map(([, v]) => v) : Object.fromEntries(touched);
}

function cut(value: unknown, count: number, label: string, notes: string[]): unknown {
  if (value === null || typeof value !== 'object') return value;
  const size = Array.isArray(value) ? value.length : Object.keys(value).length;
  if (size <= count) return value;
  notes.push(`${label} ${count} of ${size} shown`);
  return Array.isArray(value) ? value.slice(0, count) : Object.fromEntries(Object.entries(value).slice(0, count));
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, map)]));
  return value;
}

/** JSON that keeps small objects and arrays on one line, so recorded answers stay readable and short. */
export function compactJson(value: unknown, indent = '', width = 140): string {
  const flat = JSON.stringify(value);
  if (flat === undefined) return 'null';
  if (flat.length + indent.length <= width || value === null || typeof value !== 'object') return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((v) => inner + compactJson(v, inner, width)).join(',\n')}\n${indent}]`;
  const fields = Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${compactJson(v, inner, width)}`);
  return `{\n${fields.join(',\n')}\n${indent}}`;
}

/** The recorded block as a value to compare with: JSON without the recorder's comment lines, or the text. */
export function documentedValue(language: string, text: string): unknown {
  if (language === 'json' || language === 'jsonc') return JSON.parse(text.replace(/^\s*\/\/.*$/gm, ''));
  return text;
}

/**
 * Where a live answer no longer has the documented shape: every documented key must still be there with a value
 * of the same kind (null stands for any kind, as the demo's numbers may make a value null); arrays are compared
 * element by element. CSV must keep its header row. Extra fields are fine: the API grows by adding them.
 */
export function shapeMismatches(documented: unknown, live: unknown, path = '$'): string[] {
  if (typeof documented === 'string' && typeof live === 'string' && path === '$') {
    const header = (text: string) => text.split(/\r?\n/)[0];
    return header(documented) === header(live) ? [] : [`header row ${JSON.stringify(header(live))} instead of ${JSON.stringify(header(documented))}`];
  }
  if (documented === null || live === null) return [];
  if (Array.isArray(documented)) {
    if (!Array.isArray(live)) return [`${path}: ${kindOf(live)} instead of an array`];
    if (live.length === 0) return [];
    return documented.flatMap((item, i) => shapeMismatches(item, live[i] ?? live[0], `${path}[${i}]`));
  }
  if (typeof documented === 'object') {
    if (typeof live !== 'object' || Array.isArray(live)) return [`${path}: ${kindOf(live)} instead of an object`];
    return Object.entries(documented).flatMap(([key, value]) =>
      key in live ? shapeMismatches(value, (live as Record<string, unknown>)[key], `${path}.${key}`) : [`${path}.${key} is missing`],
    );
  }
  return kindOf(documented) === kindOf(live) ? [] : [`${path}: ${kindOf(live)} instead of ${kindOf(documented)}`];
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}
