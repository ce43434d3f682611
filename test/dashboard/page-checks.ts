// What every dashboard page must pass in the browser tests: axe-core with zero violations (its source evaluated in
// the page, which the strict CSP would refuse as an inline script), no horizontal scrolling at 390 px, and a
// screenshot at desktop and at 390 px width.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { SCREENSHOT_DIR } from '../helpers/browser.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const run = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> } }).axe.run;
    return run(document, { resultTypes: ['violations'] });
  });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

/** Runs the checks on the page as it is now and saves `dashboard-<name>-desktop.png` / `-390.png`. */
export async function checkPage(page: Page, name: string): Promise<void> {
  await page.setViewportSize(DESKTOP);
  expect(await axeViolations(page), `axe on ${name}`).toEqual([]);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `dashboard-${name}-desktop.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `horizontal scroll at 390 px on ${name}`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `dashboard-${name}-390.png`), fullPage: true });
  await page.setViewportSize(DESKTOP);
}

/** A new page at `url` whose Content-Security-Policy complaints are collected into `violations` (a test fails on any). */
export async function openWatchingCsp(context: BrowserContext, url: string, violations: string[]): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(url);
  return page;
}
