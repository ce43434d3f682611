// /api/v1/docs: rendered from the OpenAPI document, complete, self-contained (works offline) and locked down by CSP.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/errors/app-error.ts';
import { renderDocsPage } from '../../src/docs/render-docs-page.ts';
import { buildOpenApiDocument } from '../../src/openapi/build-document.ts';
import { defineRestRoute } from '../../src/rest/rest-route.ts';
import { REST_ROUTES } from '../../src/rest/route-table.ts';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

const OWN_PATHS = ['/api/v1/openapi.json', '/api/mcp', '/api/graphql'];
const unescape = (html: string) => html.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

describe('GET /api/v1/docs', () => {
  let rt: TestRuntime;
  let html: string;
  let headers: Headers;
  beforeAll(async () => {
    rt = await createTestRuntime();
    const res = await rt.request('/api/v1/docs');
    expect(res.status).toBe(200);
    headers = res.headers;
    html = await res.text();
  });
  afterAll(() => rt.dispose());

  it('is HTML served without a credential, under a strict CSP that allows only its own inline stylesheet', () => {
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    expect(styles).toHaveLength(1);
    expect(csp).toContain(`'sha256-${createHash('sha256').update(styles[0]!).digest('base64')}'`);
    expect(html).not.toMatch(/<script|<iframe|<img|<link|<form|\son[a-z]+=/i);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('loads nothing from elsewhere: no src= at all, and every href is an anchor or one of the contract paths', () => {
    expect(html).not.toMatch(/\ssrc=/i);
    expect(html).not.toMatch(/url\(/i);
    const hrefs = [...html.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1]!);
    expect(hrefs.length).toBeGreaterThan(50);
    for (const href of hrefs) expect(href.startsWith('#') || OWN_PATHS.includes(href), href).toBe(true);
    for (const path of OWN_PATHS) expect(hrefs).toContain(path);
    const ids = new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]!));
    for (const href of hrefs.filter((h) => h.startsWith('#'))) expect(ids.has(href.slice(1)), href).toBe(true);
  });

  it('shows every endpoint with its method, path, scope, parameters and a curl example using $SITELINE_KEY', () => {
    for (const route of REST_ROUTES) {
      const path = route.path.replace('/api/v1', '').replace(/:([A-Za-z]+)/g, '{$1}');
      const article = new RegExp(`<article id="op-[^"]+"[^>]*>\\s*<h3[^>]*><span class="method[^"]*">${route.method}</span> <code>${path.replace(/[{}]/g, '\\$&')}</code></h3>([\\s\\S]*?)</article>`).exec(html);
      expect(article, `${route.method} ${path}`).not.toBeNull();
      const body = unescape(article![1]!);
      expect(body).toContain(route.summary);
      expect(body).toContain(`Scope: <code>${route.scope ?? 'read'}</code>`);
      for (const name of route.query) expect(body, `${path} ${name}`).toContain(`<code>${name}</code>`);
      if (route.csvRows) expect(body).toContain('<code>format</code>');
      expect(body).toContain('curl -sS');
      expect(body).toContain('Authorization: Bearer $SITELINE_KEY');
      expect(body).toContain(`'http://siteline.test/api/v1${path.replace('{projectKey}', 'acme-shop').replace('{funnelKey}', 'checkout-x7k2q')}`);
      if (route.method === 'POST') expect(body).toMatch(/--data '\{"project_key":"acme-shop"/);
    }
    expect(unescape(html)).toContain("'http://siteline.test/api/v1/metrics/acme-shop/dimension?dimension=country&period=28days'");
  });

  it('groups endpoints by tag, with a contents list', () => {
    for (const tag of new Set(REST_ROUTES.flatMap((r) => r.tags))) expect(html).toContain(`id="tag-${tag.replace(/\s+/g, '-')}"`);
    expect(html).toMatch(/<nav aria-label="Contents">/);
  });

  it('has the overview and a table of every error code', () => {
    expect(html).toContain('<h3 id="overview-periods-and-time-zones">Periods and time zones</h3>');
    for (const [code, status] of Object.entries(ERROR_STATUS)) expect(html).toMatch(new RegExp(`<tr id="error-${code}"><td><span id="${code}"></span>${status}</td>`));
  });

  it('is structured for assistive technology', () => {
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(html).toContain('<main id="main"');
    expect(html).toContain('<a class="skip" href="#main">');
    expect(html).not.toMatch(/<th>/);
    expect([...html.matchAll(/<table>/g)].length).toBe([...html.matchAll(/<caption>/g)].length);
    const ids = [...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answers another method with 405', async () => {
    const res = await rt.request('/api/v1/docs', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});

describe('renderDocsPage()', () => {
  it('escapes whatever the document says', () => {
    const route = defineRestRoute({
      method: 'GET',
      path: '/api/v1/projects/:projectKey/evil',
      operation: 'Evil',
      query: ['filter'],
      summary: '<script>alert(1)</script>',
      description: 'See <img src=x onerror=alert(1)> and `<b>`',
      tags: ['<i>tag</i>'],
    });
    const html = renderDocsPage(buildOpenApiDocument({ routes: [route], publicUrl: 'http://x.test' }));
    expect(html).not.toMatch(/<script|<img|<b>|<i>/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<code>&lt;b&gt;</code>');
  });
});
