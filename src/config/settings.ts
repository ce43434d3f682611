// The one typed schema of Siteline's settings (env vars), validated at start with every problem listed.
import { hostname } from 'node:os';
import * as z from 'zod';
import { parseTrustProxy } from './trust-proxy.ts';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const booleanish = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const port = z.coerce.number().int().min(0).max(65535);

/** One entry per setting; `describe()` text is what the README's configuration table shows. */
export const settingsSchema = z.object({
  PORT: port.default(3000).describe('HTTP port of the API.'),
  HOST: z.string().min(1).default('127.0.0.1').describe('Interface the API binds to (0.0.0.0 in containers).'),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('Public base URL (scheme://host[:port]) used in OAuth metadata, links and the MCP resource. Default: http://HOST:PORT, where a HOST of 0.0.0.0 or :: (every interface) is replaced by the machine\'s host name.'),
  DATABASE_URL: z
    .string()
    .optional()
    .describe('postgres://… for PostgreSQL; a file path or file: URL for SQLite. Default: ./data/siteline.sqlite.'),
  DATA_DIR: z.string().min(1).default('./data').describe('Folder for the SQLite database, the demo key and sandbox credentials.'),
  REDIS_URL: z.string().optional().describe('redis://… enables the shared cache, rate limits, provider-quota fair use and cross-instance single-flight.'),
  SITELINE_SECRET_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/=_-]{43,}$/, 'must be at least 32 bytes, base64 or base64url encoded')
    .optional()
    .describe('Key (32 bytes, base64) for AES-256-GCM encryption of stored provider credentials and for signing tokens. Default: generated once into DATA_DIR/secret-key.'),
  SITELINE_SANDBOX: z
    .enum(['auto', 'off'])
    .optional()
    .describe('auto: start the provider sandbox and seed demo data; off: real providers only. Default: auto, except off when DATABASE_URL is PostgreSQL or PUBLIC_URL is https (a production-shaped setup never gets a demo account by accident).'),
  SANDBOX_PORT: port.default(4010).describe('Port on which the in-process sandbox answers (its /__sandbox/* switches live there).'),
  SANDBOX_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('Use a sandbox that already runs elsewhere (e.g. `siteline sandbox` in docker-compose) instead of starting one in-process.'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info').describe('pino log level.'),
  METRICS_ENABLED: booleanish.default(true).describe('Serve Prometheus metrics at /metrics.'),
  METRICS_PORT: port.optional().describe('Serve /metrics on this separate port instead of the API port.'),
  CORS_ORIGINS: z
    .string()
    .default('')
    .describe('Comma-separated exact origins whose browser pages may call the REST API, /api/graphql and /api/mcp.'),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (parsed.ok) return parsed.value;
      for (const message of parsed.problems) ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    })
    .describe(
      'Proxies whose X-Forwarded-For/-Proto/-Host are believed (client address for per-address limits): false (none), loopback (a proxy on this host), or a comma-separated list of addresses and CIDR ranges such as 10.0.0.0/8,fd00::/8. true is refused.',
    ),
  SIGNUP: z
    .enum(['closed', 'invite', 'open'])
    .default('invite')
    .describe('Who may create an account in the browser: closed (only the CLI), invite (a single-use link from the owner), open (anyone who can reach the sign-up page).'),
  GOOGLE_OAUTH_CLIENT_ID: z.string().min(1).optional().describe('OAuth client id (type "Web application") for "Connect Google" in the dashboard. Default with the sandbox: its demo client.'),
  GOOGLE_OAUTH_CLIENT_SECRET: z.string().min(1).optional().describe('The secret of GOOGLE_OAUTH_CLIENT_ID.'),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000).describe('How long SIGTERM waits for in-flight requests.'),
});

type ParsedSettings = z.infer<typeof settingsSchema>;
export type Settings = Omit<ParsedSettings, 'SITELINE_SANDBOX'> & { SITELINE_SANDBOX: 'auto' | 'off' };

/** The sandbox only when nothing says this is a production setup, unless asked for explicitly. */
function sandboxDefault(parsed: ParsedSettings): 'auto' | 'off' {
  if (parsed.SITELINE_SANDBOX) return parsed.SITELINE_SANDBOX;
  const production = /^postgres(ql)?:\/\//i.test(parsed.DATABASE_URL ?? '') || (parsed.PUBLIC_URL ?? '').startsWith('https:');
  return production ? 'off' : 'auto';
}

export class SettingsError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'SettingsError';
    this.problems = problems;
  }
}

/** Reads settings from an env object once; throws SettingsError listing every problem. */
export function loadSettings(env: NodeJS.ProcessEnv): Settings {
  const input = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = settingsSchema.safeParse(input);
  if (parsed.success) return { ...parsed.data, SITELINE_SANDBOX: sandboxDefault(parsed.data) };
  throw new SettingsError(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
}

const EVERY_INTERFACE = new Set(['0.0.0.0', '::', '[::]']);

/**
 * PUBLIC_URL, or http://HOST:PORT. A server listening on every interface is meant to be reached from elsewhere, so
 * its URL names the machine (the OS host name, which other machines on the network resolve) rather than loopback;
 * a host name no URL can carry falls back to 127.0.0.1.
 */
export function publicUrlOf(settings: Settings, machineHostName: string = hostname()): string {
  if (settings.PUBLIC_URL) return settings.PUBLIC_URL.replace(/\/+$/, '');
  const host = EVERY_INTERFACE.has(settings.HOST) ? urlHostOr(machineHostName.toLowerCase(), '127.0.0.1') : settings.HOST;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${settings.PORT}`;
}

function urlHostOr(name: string, fallback: string): string {
  return /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(name) ? name : fallback;
}
