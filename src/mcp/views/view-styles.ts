// The views' one stylesheet. Colours, fonts and radii come from the host's theme variables (the MCP Apps standard
// names, set on :root by the host context); the defaults below apply when a host sends none, in light and dark
// through light-dark(). Layout is fluid: controls wrap, tables scroll sideways in their own region, bars shrink.
export const VIEW_STYLES = `
:root {
  color-scheme: light dark;
  --color-background-primary: light-dark(#ffffff, #1c1c1c);
  --color-background-secondary: light-dark(#f4f4f3, #2b2b2a);
  --color-text-primary: light-dark(#1c1917, #f4f4f3);
  --color-text-secondary: light-dark(#57534e, #c9c5bf);
  --color-text-danger: light-dark(#b42318, #ff9b8f);
  --color-text-success: light-dark(#136c3a, #7ee2a8);
  --color-border-primary: light-dark(#d6d3d1, #4d4a47);
  --color-ring-primary: light-dark(#1d5bd8, #8ab4ff);
  --font-sans: system-ui, -apple-system, "Segoe UI", sans-serif;
  --font-text-sm-size: 0.8125rem;
  --font-text-md-size: 0.9375rem;
  --font-heading-sm-size: 1.0625rem;
  --border-radius-sm: 4px;
  --chart-current: light-dark(#1d5bd8, #7aa7ff);
  --chart-previous: light-dark(#8a8580, #8f8a85);
  --chart-up: light-dark(#1b8a4a, #4fd18b);
  --chart-down: light-dark(#c2362b, #ff7b6e);
  --chart-engine1: light-dark(#1d5bd8, #7aa7ff);
  --chart-engine2: light-dark(#0f8f8a, #4fd1c5);
  --chart-total: light-dark(#6b6661, #a8a39d);
}
* { box-sizing: border-box; }
html, body { margin: 0; background: var(--color-background-primary); color: var(--color-text-primary); font: var(--font-text-md-size)/1.45 var(--font-sans); }
main { padding: 12px 14px 16px; }
h1 { font-size: var(--font-heading-sm-size); margin: 0; }
figure { margin: 8px 0; }
h2 { font-size: var(--font-text-md-size); margin: 16px 0 6px; }
.sub, .note, .status, .legend, caption, .tick-label { color: var(--color-text-secondary); font-size: var(--font-text-sm-size); }
.sub { margin: 2px 0 8px; }
.error { color: var(--color-text-danger); margin: 6px 0; }
.error:empty, .status:empty { display: none; }
.headline { font-size: 1.25rem; font-weight: 600; margin: 6px 0 2px; }
.up { color: var(--color-text-success); }
.down { color: var(--color-text-danger); }
.controls { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: end; margin: 4px 0 8px; }
.control { display: flex; flex-direction: column; gap: 2px; font-size: var(--font-text-sm-size); }
select, button { font: inherit; color: inherit; }
select { background: var(--color-background-primary); border: 1px solid var(--color-border-primary); border-radius: var(--border-radius-sm); padding: 3px 6px; max-width: 100%; }
button.link, button.sort { background: none; border: 0; padding: 0; cursor: pointer; text-align: inherit; font-weight: inherit; }
button.link { color: var(--color-ring-primary); text-decoration: underline; text-underline-offset: 2px; overflow-wrap: break-word; }
button.chip { border: 1px solid var(--color-border-primary); background: var(--color-background-primary); border-radius: 999px; padding: 2px 10px; cursor: pointer; }
button.chip[aria-pressed="true"] { background: var(--color-text-primary); color: var(--color-background-primary); }
:focus-visible { outline: 2px solid var(--color-ring-primary); outline-offset: 2px; }
.table-scroll { overflow-x: auto; margin: 6px 0; }
.table-block > .chip { margin: 2px 0 4px; }
table { border-collapse: collapse; width: 100%; font-size: var(--font-text-sm-size); }
caption { text-align: start; padding: 2px 0 4px; max-width: calc(100vw - 28px); }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--color-border-primary); text-align: start; vertical-align: middle; }
thead th { font-weight: 600; white-space: nowrap; }
tbody th { font-weight: 400; min-width: 6.5rem; max-width: 22rem; overflow-wrap: break-word; }
.num { text-align: end; font-variant-numeric: tabular-nums; white-space: nowrap; }
th[aria-sort="ascending"] .sort::after { content: " ▲"; }
th[aria-sort="descending"] .sort::after { content: " ▼"; }
.bar { display: inline-flex; width: 5.5rem; height: 0.55rem; background: var(--color-background-secondary); border-radius: 2px; vertical-align: middle; margin-inline-end: 6px; overflow: hidden; }
.bar-fill { display: block; height: 100%; }
.bar + .value { display: inline-block; min-width: 7ch; }
.bar-fill.current, .bar-fill.engine1 { background: var(--chart-engine1); }
.bar-fill.engine2 { background: var(--chart-engine2); }
.bar-fill.stake { background: var(--chart-down); }
.delta { display: block; font-size: 0.75rem; white-space: normal; }
.chart-box { width: 100%; overflow: hidden; }
svg.chart { display: block; }
svg .grid { stroke: var(--color-border-primary); stroke-width: 1; }
svg .tick { fill: var(--color-text-secondary); font-size: 11px; }
svg .line { fill: none; stroke-width: 2; }
svg .line.current { stroke: var(--chart-current); }
svg .line.previous { stroke: var(--chart-previous); stroke-dasharray: 5 4; }
svg .marker { stroke: var(--color-background-primary); stroke-width: 2; }
svg .marker.up { fill: var(--chart-up); }
svg .marker.down { fill: var(--chart-down); }
.legend { display: flex; flex-wrap: wrap; gap: 4px 14px; list-style: none; padding: 0; margin: 4px 0; }
.swatch { display: inline-block; width: 14px; height: 3px; margin-inline-end: 5px; vertical-align: middle; background: var(--chart-current); }
.swatch.previous { background: repeating-linear-gradient(90deg, var(--chart-previous) 0 5px, transparent 5px 8px); }
.swatch.up { background: var(--chart-up); height: 8px; width: 8px; border-radius: 50%; }
.swatch.down { background: var(--chart-down); height: 8px; width: 8px; border-radius: 50%; }
.swatch.engine2 { background: var(--chart-engine2); height: 8px; }
.swatch.engine1 { background: var(--chart-engine1); height: 8px; }
.rows { list-style: none; margin: 8px 0; padding: 0; display: grid; gap: 6px; }
.rows li { display: grid; grid-template-columns: minmax(7rem, 34%) 1fr; gap: 2px 10px; align-items: center; }
.rows .label { overflow-wrap: anywhere; font-size: var(--font-text-sm-size); }
.rows .track { position: relative; height: 1.35rem; background: var(--color-background-secondary); border-radius: 2px; }
.rows .span { position: absolute; top: 0; bottom: 0; border-radius: 2px; }
.rows .span.total { background: var(--chart-total); }
.rows .span.current { background: var(--chart-current); }
.rows .span.up { background: var(--chart-up); }
.rows .span.down { background: var(--chart-down); }
.rows .figure { grid-column: 2; font-size: var(--font-text-sm-size); color: var(--color-text-secondary); }
.badge { display: inline-block; font-size: 0.7rem; border: 1px solid currentColor; border-radius: 999px; padding: 0 6px; margin-inline-start: 4px; }
.chips { display: flex; flex-wrap: wrap; gap: 6px; margin: 6px 0; }
.warnings { margin-top: 10px; font-size: var(--font-text-sm-size); color: var(--color-text-secondary); }
.warnings ul { margin: 4px 0; padding-inline-start: 18px; }
details.data summary { cursor: pointer; font-size: var(--font-text-sm-size); margin-top: 6px; }
.anomalies { margin: 6px 0; padding-inline-start: 18px; font-size: var(--font-text-sm-size); }
@media (max-width: 520px) {
  main { padding: 8px 8px 12px; }
  .bar { width: 3rem; }
  .rows li { grid-template-columns: 1fr; }
  .rows .figure { grid-column: 1; }
}
`;
