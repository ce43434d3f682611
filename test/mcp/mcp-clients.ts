// MCP test clients against the in-process app: the v2 client in modern (2026-07-28) and legacy (2025) mode,
// and the v1 client (a real 2025-11-25 client). Requests go through app.fetch with a Host header set.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestRuntime } from '../helpers/test-runtime.ts';

export const MCP_URL = 'http://siteline.test/api/mcp';
export type ClientKind = 'v2-modern' | 'v2-legacy' | 'v1';
export const CLIENT_KINDS: readonly ClientKind[] = ['v2-modern', 'v2-legacy', 'v1'];

/** What the tests need from either client generation. */
export interface TestClient {
  kind: ClientKind;
  listTools(): Promise<{ tools: ToolInfo[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<CallResult>;
  close(): Promise<void>;
  raw: ClientV2 | ClientV1;
}

export interface ToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown> & { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

export interface CallResult {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export function inProcessFetch(rt: Pick<TestRuntime, 'app'>): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const request = new Request(input, init);
    request.headers.set('host', new URL(request.url).host);
    return rt.app.fetch(request);
  };
}

export async function connect(rt: Pick<TestRuntime, 'app'>, kind: ClientKind, key: string, options: { elicitation?: boolean } = {}): Promise<TestClient> {
  const fetch = inProcessFetch(rt);
  const headers = { authorization: `Bearer ${key}` };
  if (kind === 'v1') {
    const client = new ClientV1({ name: 'siteline-test-v1', version: '1.0.0' });
    await client.connect(new TransportV1(new URL(MCP_URL), { fetch, requestInit: { headers } }));
    return wrap(kind, client);
  }
  const client = new ClientV2(
    { name: `siteline-test-${kind}`, version: '1.0.0' },
    {
      versionNegotiation: { mode: kind === 'v2-modern' ? 'auto' : 'legacy' },
      ...(options.elicitation ? { capabilities: { elicitation: { form: {} } } } : {}),
    },
  );
  await client.connect(new TransportV2(new URL(MCP_URL), { fetch, requestInit: { headers } }));
  return wrap(kind, client);
}

function wrap(kind: ClientKind, client: ClientV2 | ClientV1): TestClient {
  return {
    kind,
    raw: client,
    listTools: () => (client as ClientV1).listTools() as Promise<{ tools: ToolInfo[] }>,
    callTool: (params) => (client as ClientV1).callTool(params) as Promise<CallResult>,
    close: () => client.close(),
  };
}

/** MCP tests make many calls per second with one key; the limits themselves are tested in transport.test.ts. */
export const RELAXED_LIMITS = {
  limits: { request: { name: 'default', points: 1_000_000, windowSec: 60 }, burst: { name: 'burst', points: 1_000_000, windowSec: 1 } },
};
