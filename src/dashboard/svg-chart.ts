// A line chart rendered on the server as inline SVG: drawn without JavaScript (so the strict CSP and no-JS browsers
// need nothing), scales to any width, and carries a text summary for screen readers. Each point is a small target
// whose <title> is its value (and the comparison's), which browsers show on hover and screen readers read; the
// comparison is a second, dashed line; the axes carry gridline values and dates.
import { h, type SafeHtml } from '../account/html.ts';

export interface ChartPoint {
  label: string;
  value: number;
  /** The comparison range's value for this bucket (null: that range has no data here). */
  previous?: number | null;
}

const W = 640;
const H = 220;
const PAD = { left: 52, right: 12, top: 12, bottom: 30 };
const GRIDLINES = 4;
const DATE_LABELS = 5;

function compact(value: number): string {
  return Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}

/** A round step for gridlines (1, 2 or 5 times a power of ten) so the axis reads 0, 50, 100 rather than 0, 47, 94. */
function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max / GRIDLINES));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s * GRIDLINES >= max) ?? 10 * power;
  return step * GRIDLINES;
}

export function lineChart(options: { id: string; title: string; points: readonly ChartPoint[]; format?: (v: number) => string; previousLabel?: string }): SafeHtml {
  const { points } = options;
  const format = options.format ?? ((v: number) => v.toLocaleString('en-US'));
  if (points.length === 0) return h`<p class="muted">No data for this period.</p>`;
  const previous = points.map((p) => p.previous).filter((v): v is number => typeof v === 'number');
  const top = niceMax(Math.max(0, ...points.map((p) => p.value), ...previous));
  const x = (i: number) => PAD.left + (points.length === 1 ? (W - PAD.left - PAD.right) / 2 : (i * (W - PAD.left - PAD.right)) / (points.length - 1));
  const y = (v: number) => PAD.top + (1 - v / top) * (H - PAD.top - PAD.bottom);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  const area = `${x(0).toFixed(1)},${y(0)} ${line} ${x(points.length - 1).toFixed(1)},${y(0)}`;
  const previousLine = points.flatMap((p, i) => (typeof p.previous === 'number' ? [`${x(i).toFixed(1)},${y(p.previous).toFixed(1)}`] : [])).join(' ');
  const total = points.reduce((sum, p) => sum + p.value, 0);
  const peak = points.reduce((best, p) => (p.value > best.value ? p : best), points[0]!);
  const summary = `${options.title}: ${points.length} points from ${points[0]!.label} to ${points.at(-1)!.label}, total ${total.toLocaleString('en-US')}, highest ${peak.value.toLocaleString('en-US')} on ${peak.label}.`;
  const grid = Array.from({ length: GRIDLINES + 1 }, (_, k) => (top * k) / GRIDLINES);
  const labelEvery = Math.max(1, Math.ceil(points.length / DATE_LABELS));
  const dates = points.flatMap((p, i) => (i % labelEvery === 0 || i === points.length - 1 ? [{ i, label: p.label }] : []));
  const hit = (W - PAD.left - PAD.right) / Math.max(1, points.length - 1);
  return h`<figure><svg class="chart" id="${options.id}" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${options.id}-title" aria-describedby="${options.id}-desc" data-points="${points.length}">
<title id="${options.id}-title">${options.title}</title>
${grid.map((v) => h`<line class="axis" x1="${PAD.left}" y1="${y(v).toFixed(1)}" x2="${W - PAD.right}" y2="${y(v).toFixed(1)}"></line><text x="${PAD.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${compact(v)}</text>`)}
${dates.map((d) => h`<text x="${x(d.i).toFixed(1)}" y="${H - 10}" text-anchor="${d.i === 0 ? 'start' : d.i === points.length - 1 ? 'end' : 'middle'}">${d.label}</text>`)}
<polygon class="area" points="${area}"></polygon>${previousLine ? h`<polyline class="line previous" points="${previousLine}"></polyline>` : ''}<polyline class="line" points="${line}"></polyline>
${points.map((p, i) => h`<rect class="hit" x="${(x(i) - hit / 2).toFixed(1)}" y="${PAD.top}" width="${hit.toFixed(1)}" height="${H - PAD.top - PAD.bottom}" data-label="${p.label}" data-value="${String(p.value)}"><title>${p.label}: ${format(p.value)}${typeof p.previous === 'number' ? ` (${options.previousLabel ?? 'before'}: ${format(p.previous)})` : ''}</title></rect>`)}</svg>
<figcaption class="hint" id="${options.id}-desc">${summary}${previousLine ? h` <span class="legend-previous">Dashed: ${options.previousLabel ?? 'comparison'}.</span>` : ''}</figcaption></figure>`;
}
