// What every hosted view must pass: no request and no CSP violation or page error, axe-core clean in light and
// dark (tables opened, so they are checked too), no sideways scrolling at 360 px, and screenshots light/dark ×
// wide/narrow in test-results/screenshots/mcp-view-<name>-<theme>-<width>.png.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { expect } from 'vitest';
import { SCREENSHOT_DIR } from '../../helpers/browser.ts';
import type { HostedView, Theme } from './view-host.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WIDTHS = { wide: 1000, narrow: 360 };

export interface ViewCheck {
  name: string;
}

/** The table cells of one column (`data-key`): their raw `data-value` or their text. */
export async function cells(frame: Frame, key: string, what: 'value' | 'text' = 'value'): Promise<(string | null)[]> {
  return frame.locator(`table [data-key="${key}"]`).evaluateAll((nodes, w) => nodes.map((n) => (w === 'value' ? n.getAttribute('data-value') : (n.textContent ?? '').trim())), what);
}

async function axeViolations(frame: Frame): Promise<string[]> {
  await frame.evaluate(AXE_SOURCE);
  const result = await frame.evaluate(async () => {
    for (const details of document.querySelectorAll('details')) details.open = true;
    const run = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> } }).axe.run;
    const found = await run(document, { resultTypes: ['violations'] });
    for (const details of document.querySelectorAll('details')) details.open = false;
    return found;
  });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

/** Waits until the host has sized the iframe to the height the view reported. */
async function settled(view: HostedView): Promise<void> {
  await expect
    .poll(async () => {
      const content = await view.frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
      const box = await view.page.locator('iframe').boundingBox();
      return Math.abs((box?.height ?? 0) - content) <= 1;
    }, { timeout: 30_000 })
    .toBe(true);
}

export async function checkView(view: HostedView, check: ViewCheck): Promise<void> {
  for (const theme of ['light', 'dark'] as Theme[]) {
    await view.setTheme(theme);
    expect(await axeViolations(view.frame), `axe on the ${check.name} view (${theme})`).toEqual([]);
    for (const [label, width] of Object.entries(WIDTHS)) {
      await view.page.setViewportSize({ width, height: 900 });
      await settled(view);
      if (label === 'narrow') {
        const overflow = await view.frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `sideways scrolling in the ${check.name} view at ${width} px`).toBeLessThanOrEqual(0);
      }
      // Chromium paints a frame taller than the viewport only in part: the page grows to hold it first.
      const height = Math.ceil((await view.page.locator('iframe').boundingBox())?.height ?? 900);
      await view.page.setViewportSize({ width, height: Math.max(900, height) });
      await view.page.locator('iframe').screenshot({ path: join(SCREENSHOT_DIR, `mcp-view-${check.name}-${theme}-${label}.png`) });
    }
  }
  await view.setTheme('light');
  await view.page.setViewportSize({ width: WIDTHS.wide, height: 900 });
  expect(view.requests, 'requests made by the host page or the view').toEqual([]);
  expect(view.problems, 'CSP violations and page errors').toEqual([]);
}
