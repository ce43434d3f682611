// format=csv (or Accept: text/csv): RFC 4180 CSV with a header row, for timeseries and breakdown endpoints.
import { invalidParameter } from '../errors/app-error.ts';

export function wantsCsv(query: URLSearchParams, headers: Headers): boolean {
  const format = query.get('format');
  if (format !== null) {
    if (format === 'csv') return true;
    if (format === 'json') return false;
    throw invalidParameter('format', `Unsupported format '${format}'. Use 'json' or 'csv'.`);
  }
  return /(^|,)\s*text\/csv\b/i.test(headers.get('accept') ?? '');
}

export function toCsv(input: Record<string, unknown>[]): string {
  const rows = input.map((row) => flatten(row));
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const lines = [columns.map(csvField).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvField(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export const CSV_TYPE = 'text/csv; charset=utf-8; header=present';

/** Nested objects become dotted columns: a compared metric gives `sessions.value`, `sessions.previous`, …, an engine's share `engine1.clicks`. */
function flatten(row: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) Object.assign(out, flatten(value as Record<string, unknown>, `${prefix}${key}.`));
    else out[`${prefix}${key}`] = value;
  }
  return out;
}

function csvField(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  // Guard against formula injection when a CSV is opened in a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(text) && Number.isNaN(Number(text)) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
