// Talks to the in-process sandbox directly (no Siteline in between), for oracle and pass-through tests: a bearer
// token from its token endpoint (refresh-token grant), then native provider requests. These calls show up in
// sandbox.stats(); tests reset the counter after using them.
import type { Sandbox } from '../../src/sandbox/sandbox.ts';

export interface SandboxDirect {
  token(): Promise<string>;
  /** POST/GET a Google API path (`/v1beta/...`, `/webmasters/v3/...`) and return status and body text. */
  google(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; text: string }>;
  /** GET a Bing JSON method for a site, with the sandbox's API key. */
  bing(method: string, params: Record<string, string>): Promise<{ status: number; text: string }>;
}

export function sandboxDirect(sandbox: Sandbox): SandboxDirect {
  let token: Promise<string> | undefined;
  const getToken = () => {
    token ??= (async () => {
      const { client_id, client_secret, refresh_token } = sandbox.credentials.oauthClient;
      const res = await sandbox.fetch(
        new Request('https://oauth2.googleapis.com/token', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'refresh_token', client_id, client_secret, refresh_token }).toString(),
        }),
      );
      return ((await res.json()) as { access_token: string }).access_token;
    })();
    return token;
  };
  return {
    token: getToken,
    async google(method, path, body) {
      const headers: Record<string, string> = { authorization: `Bearer ${await getToken()}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await sandbox.fetch(new Request(`https://searchconsole.googleapis.com${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) }));
      return { status: res.status, text: await res.text() };
    },
    async bing(method, params) {
      const url = new URL(`https://ssl.bing.com/webmaster/api.svc/json/${method}`);
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      url.searchParams.set('apikey', sandbox.credentials.bingApiKey);
      const res = await sandbox.fetch(new Request(url));
      return { status: res.status, text: await res.text() };
    },
  };
}

/** Bing's `/Date(ms±hhmm)/` → the calendar date of the bucket (ms shifted by the stated offset). */
export function bingDay(value: string): string {
  const m = /^\/Date\((-?\d+)([+-])(\d{2})(\d{2})\)\/$/.exec(value);
  if (!m) throw new Error(`unexpected Bing date ${value}`);
  const offset = (m[2] === '-' ? -1 : 1) * (Number(m[3]) * 60 + Number(m[4]));
  return new Date(Number(m[1]) + offset * 60_000).toISOString().slice(0, 10);
}
