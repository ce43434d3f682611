// CSV = JSON: an RFC 4180 reader, the rows each route's JSON answer should become (one per point, row or driver;
// nested objects as dotted columns: `sessions.previous`, `engine1.clicks`), and the first cell that disagrees.
import type { ApiRequest } from './request.ts';

export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

type Json = Record<string, any>;

/** The rows the CSV of a request carries, from its JSON answer. */
export function expectedCsvRows(request: ApiRequest, body: Json): Json[] {
  const lift = ({ byProvider, ...rest }: Json) => ({ ...rest, ...byProvider });
  switch (request.route) {
    case 'timeseries':
      return body.points.map(({ value, ...rest }: Json) => ({ ...rest, [body.metric]: value }));
    case 'breakdown':
    case 'landingPages':
      return body.rows;
    case 'searchTimeseries':
      return body.points.map(lift);
    case 'searchBreakdown':
      return body.rows.map(lift);
    case 'changes':
      return body.drivers.map(({ echoOf, ...rest }: Json) => ({ ...rest, ...(echoOf ? { echoOf: `${echoOf.dimension}=${echoOf.value}` } : {}) }));
    default:
      throw new Error(`${request.route} has no CSV`);
  }
}

function flatten(row: Json, prefix = ''): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(row)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) Object.assign(out, flatten(value, `${prefix}${key}.`));
    else out[`${prefix}${key}`] = value;
  }
  return out;
}

/** Where the CSV differs from the JSON rows, or undefined. */
export function csvDifference(csv: string, rows: Json[]): string | undefined {
  const [header, ...lines] = parseCsv(csv);
  if (!header) return 'no header row';
  if (lines.length !== rows.length) return `${lines.length} CSV rows for ${rows.length} JSON rows`;
  for (let i = 0; i < rows.length; i++) {
    for (const [column, value] of Object.entries(flatten(rows[i]!))) {
      if (value === undefined) continue;
      const at = header.indexOf(column);
      if (at < 0) return `no column ${column}`;
      const cell = lines[i]![at]!;
      const same =
        value === null ? cell === '' : typeof value === 'number' ? cell !== '' && Number(cell) === value : typeof value === 'string' ? cell === value || cell === `'${value}` : cell === String(value);
      if (!same) return `row ${i + 1}, ${column}: JSON ${JSON.stringify(value)}, CSV ${JSON.stringify(cell)}`;
    }
  }
  return undefined;
}
