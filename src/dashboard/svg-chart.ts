// A small line chart rendered on the server as inline SVG: drawn without JavaScript (so the strict CSP and
// no-JS browsers need nothing), scales to any width, and carries a text summary for screen readers.
import { h, type SafeHtml } from '../account/html.ts';

export interface ChartPoint {
  label: string;
  value: number;
}

const W = 640;
const H = 200;
const PAD = { left: 52, right: 12, top: 12, bottom: 28 };

function compact(value: number): string {
  return Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}

export function lineChart(options: { id: string; title: string; points: readonly ChartPoint[] }): SafeHtml {
  const { points } = options;
  if (points.length === 0) return h`<p class="muted">No data for this period.</p>`;
  const max = Math.max(1, ...points.map((p) => p.value));
  const x = (i: number) => PAD.left + (points.length === 1 ? 0 : (i * (W - PAD.left - PAD.right)) / (points.length - 1));
  const y = (v: number) => PAD.top + (1 - v / max) * (H - PAD.top - PAD.bottom);
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  const area = `${x(0).toFixed(1)},${y(0)} ${line} ${x(points.length - 1).toFixed(1)},${y(0)}`;
  const total = points.reduce((sum, p) => sum + p.value, 0);
  const peak = points.reduce((best, p) => (p.value > best.value ? p : best), points[0]!);
  const summary = `${options.title}: ${points.length} days from ${points[0]!.label} to ${points.at(-1)!.label}, total ${total.toLocaleString('en-US')}, highest ${peak.value.toLocaleString('en-US')} on ${peak.label}.`;
  return h`<figure><svg class="chart" id="${options.id}" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${options.id}-title" aria-describedby="${options.id}-desc" data-points="${points.length}">
<title id="${options.id}-title">${options.title}</title>
<line class="axis" x1="${PAD.left}" y1="${y(0)}" x2="${W - PAD.right}" y2="${y(0)}"></line><line class="axis" x1="${PAD.left}" y1="${y(max)}" x2="${W - PAD.right}" y2="${y(max)}"></line>
<text x="${PAD.left - 6}" y="${y(max) + 4}" text-anchor="end">${compact(max)}</text><text x="${PAD.left - 6}" y="${y(0) + 4}" text-anchor="end">0</text>
<text x="${PAD.left}" y="${H - 8}">${points[0]!.label}</text><text x="${W - PAD.right}" y="${H - 8}" text-anchor="end">${points.at(-1)!.label}</text>
<polygon class="area" points="${area}"></polygon><polyline class="line" points="${line}"></polyline></svg>
<figcaption class="hint" id="${options.id}-desc">${summary}</figcaption></figure>`;
}
