// A test MCP Apps host in Chromium, built like a web host: the view's HTML (read with resources/read) runs in an
// iframe sandboxed to `allow-scripts` (an opaque origin, no same-origin access) under the CSP the spec tells
// hosts to build from the resource's `_meta.ui.csp`, and talks to ext-apps' own AppBridge (bundled for the page
// with rolldown) over postMessage. The bridge's tools/call goes to a real MCP client of the app with the test's
// API key. Every request the page makes, every CSP violation and every page error is recorded.
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { rolldown } from 'rolldown';
import type { Browser } from '../../helpers/browser.ts';
import type { CallResult, TestClient } from '../mcp-clients.ts';

const ENTRY = join(import.meta.dirname, 'host-bridge-entry.virtual.js');
let bundled: Promise<string> | undefined;

/** ext-apps' AppBridge and PostMessageTransport as one script defining `window.ExtApps`. */
function hostBridgeScript(): Promise<string> {
  bundled ??= (async () => {
    const build = await rolldown({
      input: ENTRY,
      platform: 'browser',
      logLevel: 'warn',
      plugins: [{ name: 'entry', resolveId: (id) => (id === ENTRY ? id : null), load: (id) => (id === ENTRY ? "export { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';" : null) }],
    });
    const { output } = await build.generate({ format: 'iife', name: 'ExtApps', minify: true });
    return output[0].code;
  })();
  return bundled;
}

export type Theme = 'light' | 'dark';

/** Theme variables as a host sends them (the MCP Apps standard names, light-dark() values). */
export const HOST_VARIABLES: Record<string, string> = {
  '--color-background-primary': 'light-dark(#ffffff, #262624)',
  '--color-background-secondary': 'light-dark(#f5f4ef, #30302e)',
  '--color-text-primary': 'light-dark(#141413, #faf9f5)',
  '--color-text-secondary': 'light-dark(#52514d, #c2c0b6)',
  '--color-border-primary': 'light-dark(#d9d7ce, #4a4945)',
  '--font-sans': 'system-ui, sans-serif',
};

export interface Tool {
  name: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean };
  _meta?: { ui?: { resourceUri?: string } };
}

export interface HostedView {
  page: Page;
  frame: Frame;
  /** The tool result the host fed to the view. */
  result: CallResult;
  /** tools/call requests the view sent through the bridge, in order. */
  calls: { name: string; arguments: Record<string, unknown> }[];
  /** Every request the page made (none is expected: the host page and the view are inline). */
  requests: string[];
  /** CSP violations and page errors. */
  problems: string[];
  setTheme(theme: Theme): Promise<void>;
  close(): Promise<void>;
}

/** The spec's host rule: a CSP built from the resource's declared domains (none declared: nothing outside). */
export function cspFor(csp: { connectDomains?: string[]; resourceDomains?: string[]; frameDomains?: string[]; baseUriDomains?: string[] } = {}): string {
  const resources = (csp.resourceDomains ?? []).join(' ');
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `connect-src 'self' ${(csp.connectDomains ?? []).join(' ')}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `frame-src ${(csp.frameDomains ?? []).join(' ') || "'none'"}`,
    "object-src 'none'",
    `base-uri ${(csp.baseUriDomains ?? []).join(' ') || "'self'"}`,
  ].join('; ');
}

export async function openView(browser: Browser, client: TestClient, tool: Tool, args: Record<string, unknown>, options: { width: number; theme: Theme }): Promise<HostedView> {
  const raw = client.raw as unknown as { readResource(p: { uri: string }): Promise<{ contents: { text?: string; mimeType?: string; _meta?: { ui?: { csp?: Record<string, string[]> } } }[] }> };
  const { contents } = await raw.readResource({ uri: tool._meta!.ui!.resourceUri! });
  const resource = contents[0]!;
  if (resource.mimeType !== 'text/html;profile=mcp-app') throw new Error(`unexpected view mime type ${resource.mimeType}`);
  const html = resource.text!.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${cspFor(resource._meta?.ui?.csp)}">`);
  const result = await client.callTool({ name: tool.name, arguments: args });

  const page = await browser.context.newPage();
  await page.setViewportSize({ width: options.width, height: 900 });
  const calls: HostedView['calls'] = [];
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.exposeFunction('hostCallTool', async (params: { name: string; arguments?: Record<string, unknown> }) => {
    calls.push({ name: params.name, arguments: params.arguments ?? {} });
    return client.callTool({ name: params.name, arguments: params.arguments ?? {} });
  });
  await page.setContent(`<!doctype html><html lang="en"><head><title>Test host</title><style>body{margin:0}iframe{display:block;border:0;width:100%;height:200px}.dark{background:#262624}</style></head><body><main><h1>Test host</h1></main></body></html>`);
  await page.addScriptTag({ content: await hostBridgeScript() });
  await page.evaluate(startHost, { html, tool, args, result, theme: options.theme, variables: HOST_VARIABLES });
  const frame = page.frames().find((f) => f !== page.mainFrame())!;
  await frame.waitForSelector('main[aria-busy="false"] .content > *');

  return {
    page,
    frame,
    result,
    calls,
    requests,
    problems,
    async setTheme(theme) {
      await page.evaluate(
        async ({ theme, variables }) => {
          document.body.className = theme;
          await (window as unknown as { hostBridge: { sendHostContextChange(c: unknown): Promise<void> } }).hostBridge.sendHostContextChange({ theme, styles: { variables } });
        },
        { theme, variables: HOST_VARIABLES },
      );
      await frame.waitForFunction((t) => document.documentElement.dataset.theme === t, theme);
    },
    close: () => page.close(),
  };
}

/** Runs in the host page: mounts the sandboxed iframe, connects the AppBridge, then feeds input and result. */
async function startHost(input: { html: string; tool: Tool; args: Record<string, unknown>; result: CallResult; theme: Theme; variables: Record<string, string> }): Promise<void> {
  type Bridge = {
    oncalltool: unknown;
    oninitialized: unknown;
    onsizechange: unknown;
    connect(t: unknown): Promise<void>;
    sendToolInput(p: unknown): Promise<void>;
    sendToolResult(p: unknown): Promise<void>;
  };
  const api = (window as unknown as { ExtApps: { AppBridge: new (...a: unknown[]) => Bridge; PostMessageTransport: new (...a: unknown[]) => unknown } }).ExtApps;
  const host = window as unknown as { hostCallTool(p: unknown): Promise<unknown>; hostBridge: Bridge };
  document.body.className = input.theme;
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.title = `${input.tool.name} view`;
  document.body.appendChild(iframe);
  const bridge = new api.AppBridge(
    null,
    { name: 'siteline-test-host', version: '1.0.0' },
    { serverTools: {}, logging: {} },
    { hostContext: { theme: input.theme, styles: { variables: input.variables }, locale: 'en-US', timeZone: 'Europe/Berlin', displayMode: 'inline', platform: 'web', toolInfo: { tool: input.tool } } },
  );
  bridge.oncalltool = (params: unknown) => host.hostCallTool(params);
  bridge.onsizechange = ({ height }: { height?: number }) => {
    if (height) iframe.style.height = `${height}px`;
  };
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  await bridge.connect(new api.PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = input.html;
  await initialized;
  await bridge.sendToolInput({ arguments: input.args });
  await bridge.sendToolResult(input.result);
  host.hostBridge = bridge;
}
