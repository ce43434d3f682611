// /api/v1/docs in real Chromium: axe-core finds no violation (WCAG 2.2 AA rules and best practices) on a desktop
// and a 390 px phone, the phone layout neither scrolls sideways nor lets the contents cover the text, and every
// code block and wide table can be reached and scrolled with the keyboard.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, SCREENSHOT_DIR, serveTestRuntime, type Browser, type ServedRuntime } from '../helpers/browser.ts';

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

describe.skipIf(!hasChromium)('docs page in Chromium', () => {
  let served: ServedRuntime;
  let browser: Browser;
  beforeAll(async () => {
    served = await serveTestRuntime();
    browser = await launchBrowser({ bypassCSP: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  async function open(width: number) {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`${served.origin}/api/v1/docs`);
    return page;
  }

  it.each([
    ['desktop', 1100],
    ['phone', 390],
  ])('has no axe violation (%s, %i px)', async (name, width) => {
    const page = await open(width);
    await page.addScriptTag({ path: AXE_SOURCE });
    const result = (await page.evaluate(() =>
      (window as unknown as { axe: { run(context: Document, options: object): Promise<unknown> } }).axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      }),
    )) as { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
    await page.screenshot({ path: join(SCREENSHOT_DIR, `docs-${name}.png`) });
    await page.close();
    expect(result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }, 120_000);

  it('at 390 px the page does not scroll sideways and the contents never cover the text', async () => {
    const page = await open(390);
    const layout = await page.evaluate(() => {
      const nav = document.querySelector('nav')!;
      const main = document.querySelector('main')!;
      const scrollWidth = document.documentElement.scrollWidth;
      const wide = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.parentElement?.closest('pre, .scroll')).map((el) => el.tagName);
      window.scrollTo(500, 0);
      const scrollX = window.scrollX;
      window.scrollTo(0, main.getBoundingClientRect().top + window.scrollY + 2000);
      const navBox = nav.getBoundingClientRect();
      return { scrollWidth, scrollX, wide, innerWidth: window.innerWidth, navPosition: getComputedStyle(nav).position, navBottom: navBox.bottom };
    });
    await page.close();
    expect(layout.wide).toEqual([]);
    expect(layout.scrollX).toBe(0);
    expect(layout.scrollWidth, JSON.stringify(layout)).toBeLessThanOrEqual(390);
    expect(layout.navPosition).toBe('static');
    // Scrolled well into the text, the contents list is above the viewport, not over it.
    expect(layout.navBottom).toBeLessThanOrEqual(0);
  }, 60_000);

  it('reaches every code block and wide table with the keyboard', async () => {
    const page = await open(390);
    const blocks = await page.evaluate(() => [...document.querySelectorAll('pre, .scroll')].map((el) => ({ tabIndex: (el as HTMLElement).tabIndex, label: el.getAttribute('aria-label') })));
    expect(blocks.length).toBeGreaterThan(40);
    for (const block of blocks) {
      expect(block.tabIndex).toBe(0);
      expect(block.label).toBeTruthy();
    }
    // Tab from the top reaches a code block, which then scrolls with the arrow keys.
    let focused = '';
    for (let i = 0; i < 400 && focused !== 'PRE'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.tagName ?? '');
    }
    expect(focused).toBe('PRE');
    await page.close();
  }, 60_000);
});
