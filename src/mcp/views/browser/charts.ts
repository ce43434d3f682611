// The line chart of the timeseries view, drawn as SVG at the container's own width (redrawn when it changes), so
// labels keep their size from a phone to a wide panel. Runs in the browser (serialized into the view document):
// uses only its parameters and browser globals.
import type { Dom } from './dom.ts';

export interface LineSeries {
  name: string;
  className: string;
  values: (number | null)[];
}

export interface ChartMarker {
  index: number;
  value: number;
  label: string;
  className: string;
}

export interface LineChartOptions {
  /** What the chart shows, in one sentence (the accessible name of the picture). */
  label: string;
  labels: string[];
  series: LineSeries[];
  markers: ChartMarker[];
  format(value: number): string;
}

export interface Charts {
  line(options: LineChartOptions): HTMLElement;
}

export function createCharts(dom: Dom, win: Window): Charts {
  const HEIGHT = 220;
  const PAD = { top: 14, right: 12, bottom: 26, left: 56 };

  /** Three to five round gridline values covering [lo, hi]. */
  function ticks(lo: number, hi: number): number[] {
    const span = hi - lo || Math.abs(hi) || 1;
    const raw = span / 4;
    const power = 10 ** Math.floor(Math.log10(raw));
    const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
    const out: number[] = [];
    // From the step at or below lo to the first step at or above hi, so no point is drawn outside the grid.
    for (let v = Math.floor(lo / step) * step; ; v += step) {
      out.push(Number(v.toPrecision(12)));
      if (v >= hi || out.length > 12) return out;
    }
  }

  function draw(svg: SVGElement, width: number, options: LineChartOptions): void {
    const { svg: s } = dom;
    const all = options.series.flatMap((series) => series.values).filter((v): v is number => v !== null);
    all.push(...options.markers.map((m) => m.value));
    const grid = ticks(Math.min(0, ...all), Math.max(...all, 0));
    const lo = grid[0] ?? 0;
    const hi = grid.at(-1) ?? 1;
    const n = options.labels.length;
    const x = (i: number) => PAD.left + (n <= 1 ? 0 : (i * (width - PAD.left - PAD.right)) / (n - 1));
    const y = (v: number) => PAD.top + (1 - (v - lo) / (hi - lo || 1)) * (HEIGHT - PAD.top - PAD.bottom);
    const children: SVGElement[] = [];
    for (const value of grid) {
      children.push(s('line', { class: 'grid', x1: PAD.left, x2: width - PAD.right, y1: y(value), y2: y(value) }));
      children.push(s('text', { class: 'tick', x: PAD.left - 6, y: y(value) + 4, 'text-anchor': 'end' }, options.format(value)));
    }
    const xLabels = n > 2 ? [0, Math.floor((n - 1) / 2), n - 1] : [...Array(n).keys()];
    for (const i of xLabels) {
      const anchor = i === 0 ? 'start' : i === n - 1 ? 'end' : 'middle';
      children.push(s('text', { class: 'tick', x: x(i), y: HEIGHT - 6, 'text-anchor': anchor }, options.labels[i] ?? ''));
    }
    for (const series of options.series) {
      // A gap (null) breaks the line instead of drawing it to zero.
      let path = '';
      series.values.forEach((v, i) => {
        if (v === null) return;
        path += `${path && series.values[i - 1] !== null ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
      });
      children.push(s('path', { class: `line ${series.className}`, d: path }));
    }
    for (const marker of options.markers) {
      children.push(s('circle', { class: `marker ${marker.className}`, cx: x(marker.index), cy: y(marker.value), r: 5 }, s('title', {}, marker.label)));
    }
    svg.setAttribute('viewBox', `0 0 ${width} ${HEIGHT}`);
    svg.setAttribute('width', String(width));
    svg.setAttribute('height', String(HEIGHT));
    svg.replaceChildren(...children);
  }

  return {
    line(options) {
      const svg = dom.svg('svg', { role: 'img', 'aria-label': options.label, class: 'chart' });
      const box = dom.h('div', { class: 'chart-box' }, svg);
      let drawn = 0;
      new ResizeObserver(() => {
        const width = Math.max(240, Math.floor(box.clientWidth));
        if (width === drawn) return;
        drawn = width;
        draw(svg, width, options);
      }).observe(box);
      win.requestAnimationFrame(() => {
        if (drawn === 0) draw(svg, (drawn = Math.max(240, Math.floor(box.clientWidth))), options);
      });
      return box;
    },
  };
}
