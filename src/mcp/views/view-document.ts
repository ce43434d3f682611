// Builds each view's HTML document: one self-contained page (its stylesheet and script inline, no URL to load).
// The browser code is written as typed functions under browser/ and serialized here with Function#toString, the
// way Playwright ships page.evaluate callbacks: Node has already stripped the types, so no bundler or build step
// is needed, and tsc and the linter check the code that runs in the view. Built once per process.
import { bootView } from './browser/boot.ts';
import { createBridge } from './browser/bridge.ts';
import { createCharts } from './browser/charts.ts';
import { createDom, createFormat } from './browser/dom.ts';
import { createTables } from './browser/tables.ts';
import { VIEW_STYLES } from './view-styles.ts';
import type { ViewDefinition } from './view-table.ts';

const KIT = { createBridge, createDom, createFormat, createTables, createCharts };

export function viewDocument(view: ViewDefinition): string {
  const parts = Object.entries(KIT).map(([name, fn]) => `${name}: ${fn.toString()}`).join(',\n');
  const script = `(${bootView.toString()})({\n${parts}\n}, ${view.makeView.toString()}, ${JSON.stringify(`Siteline: ${view.title}`)});`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${view.title}</title>`,
    `<style>${VIEW_STYLES}</style>`,
    '</head>',
    '<body>',
    '<noscript>This view needs JavaScript; the tool result holds the same figures as text.</noscript>',
    // A "</script" inside the code would end the element early; "<\/" is the same string to the JS parser.
    `<script>${script.replace(/<\/(script)/gi, '<\\/$1')}</script>`,
    '</body>',
    '</html>',
  ].join('\n');
}
