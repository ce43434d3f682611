// The demo the docs are recorded from and checked against: the app and the provider sandbox in-process, seeded
// as `npm start` seeds them, answering documented requests to localhost:3000 (the API) and localhost:4010 (the sandbox).
import { createSandboxRuntime, type SandboxRuntime } from '../../test/helpers/sandbox-runtime.ts';
import type { CurlRequest } from './curl-command.ts';

export const API_ORIGIN = 'http://localhost:3000';
const SANDBOX_ORIGIN = 'http://localhost:4010';

export interface DocsDemo {
  runtime: SandboxRuntime;
  /** `$NAME` values documented commands may use. */
  variables: Record<string, string>;
  send(request: CurlRequest): Promise<DocResponse>;
  dispose(): Promise<void>;
}

export interface DocResponse {
  status: number;
  contentType: string;
  text: string;
}

export async function createDocsDemo(): Promise<DocsDemo> {
  const runtime = await createSandboxRuntime({ env: { PUBLIC_URL: API_ORIGIN } });
  return {
    runtime,
    variables: { SITELINE_KEY: runtime.demo.apiKey },
    async send(request) {
      const url = new URL(request.url.replace('127.0.0.1', 'localhost'));
      const init = { method: request.method, headers: { ...request.headers, host: url.host }, ...(request.body === undefined ? {} : { body: request.body }) };
      let response: Response;
      if (url.origin === API_ORIGIN) response = await runtime.app.fetch(new Request(url, init));
      else if (url.origin === SANDBOX_ORIGIN) response = await runtime.sandbox.fetch(new Request(url, init));
      else throw new Error(`Documented requests go to ${API_ORIGIN} or ${SANDBOX_ORIGIN}, not ${url.origin}`);
      return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
    },
    async dispose() {
      runtime.sandbox.clearFaults();
      await runtime.dispose();
    },
  };
}

