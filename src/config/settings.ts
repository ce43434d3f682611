// The one typed schema of Siteline's settings (env vars), validated at start with every problem listed.
import * as z from 'zod';

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
    .describe('Public base URL (scheme://host[:port]) used in OAuth metadata, links and the MCP resource. Default: http://HOST:PORT.'),
  DATABASE_URL: z
    .string()
    .optional()
    .describe('postgres://… for PostgreSQL; a file path or file: URL for SQLite. Default: ./data/siteline.sqlite.'),
  DATA_DIR: z.string().min(1).default('./data').describe('Folder for the SQLite database, the demo key and sandbox credentials.'),
  REDIS_URL: z.string().optional().describe('redis://… enables the shared cache, rate limits and cross-instance single-flight.'),
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
    .describe('Comma-separated exact origins allowed to call /api/mcp and the REST API from browsers.'),
  TRUST_PROXY: z
    .enum(['false', 'true', 'loopback'])
    .default('false')
    .describe('Whether X-Forwarded-* headers are trusted for the client IP (per-IP limits): false, true, or loopback (only from 127.0.0.0/8 and ::1 hops).'),
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

export function publicUrlOf(settings: Settings): string {
  const url = settings.PUBLIC_URL ?? `http://${settings.HOST === '0.0.0.0' ? '127.0.0.1' : settings.HOST}:${settings.PORT}`;
  return url.replace(/\/+$/, '');
}
