// `siteline keys create|list|revoke|rotate`: API keys of an account. The plaintext key is printed once, at creation.
import { createApiKeyService } from '../../auth/api-keys.ts';
import { announcementNote, announceRevocation } from '../announce-revocation.ts';
import type { ApiKeyView } from '../../auth/api-keys.ts';
import { parseScopes } from '../../auth/scopes.ts';
import { requireAccountByEmail } from '../../store/accounts-repository.ts';
import type { Database } from '../../store/schema.ts';
import { OPERATOR } from '../../writes/actor.ts';
import { createKey, revokeKey, rotateKey, type KeyDeps } from '../../writes/key-writes.ts';
import type { Kysely } from 'kysely';
import type { CliIO } from '../cli-io.ts';
import { withStore } from '../open-store.ts';
import { parseCommandArgs, requireOption, requirePositional, runSubcommands, UsageError, writeJson, writeTable } from '../output.ts';
import type { Subcommand } from '../output.ts';

export const summary = 'Create, list, revoke and rotate API keys.';

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `90s`, `15m`, `24h`, `30d`, `2w` → milliseconds. */
export function parseDuration(text: string, flag: string): number {
  const match = /^(\d+)([smhdw])$/.exec(text.trim());
  if (!match?.[1] || !match[2]) throw new UsageError(`${flag} '${text}' is not a duration like 90s, 15m, 24h, 30d or 2w`);
  return Number(match[1]) * (UNIT_MS[match[2]] ?? 0);
}

/** A duration from now, or an ISO-8601 date/time. */
function parseExpiry(text: string, now: number): Date {
  if (/^\d+[smhdw]$/.test(text.trim())) return new Date(now + parseDuration(text, '--expires'));
  const at = Date.parse(text);
  if (Number.isNaN(at) || !/^\d{4}-\d{2}-\d{2}/.test(text)) throw new UsageError(`--expires '${text}' is neither a duration (30d) nor an ISO date`);
  return new Date(at);
}

function describeKey(key: ApiKeyView) {
  return {
    ...key,
    display: `${key.prefix}…${key.last4}`,
    scopeList: key.scopes.join(','),
    projects: key.projectKeys === null ? 'all' : key.projectKeys.join(','),
  };
}

const KEY_COLUMNS = [
  ['id', 'id'],
  ['name', 'name'],
  ['display', 'key'],
  ['scopeList', 'scopes'],
  ['projects', 'projects'],
  ['status', 'status'],
  ['expiresAt', 'expires'],
  ['lastUsedAt', 'last used'],
] as const;

const ACCOUNT = { account: { type: 'string' } } as const;

/** Key writes as the operator, through the key service on the CLI's store. */
const keyWrites = (db: Kysely<Database>): KeyDeps => ({ db, clock: () => new Date(), apiKeys: createApiKeyService({ db }) });

const SUBCOMMANDS: Record<string, Subcommand> = {
  create: {
    usage: 'create --account <email> [--name <name>] [--scopes read,raw,mcp:write] [--expires 30d|<ISO date>] [--projects a,b] [--rate-limit <per min>] [--json]',
    async run(args, io) {
      const { values } = parseCommandArgs(args, {
        ...ACCOUNT,
        name: { type: 'string' },
        scopes: { type: 'string' },
        expires: { type: 'string' },
        projects: { type: 'string' },
        'rate-limit': { type: 'string' },
      });
      const email = requireOption(values.account, '--account');
      const rateLimit = values['rate-limit'];
      if (rateLimit !== undefined && !/^\d+$/.test(rateLimit)) throw new UsageError(`--rate-limit '${rateLimit}' is not a whole number`);
      return withStore(io, async ({ store }) => {
        const account = await requireAccountByEmail(store.db, email);
        const { key, record } = await createKey(keyWrites(store.db), OPERATOR, account.id, {
          name: values.name,
          scopes: values.scopes === undefined ? undefined : parseScopes(values.scopes),
          expiresAt: values.expires === undefined ? undefined : parseExpiry(values.expires, Date.now()),
          projectKeys: values.projects === undefined ? null : values.projects.split(',').map((p) => p.trim()).filter(Boolean),
          rateLimitPerMinute: rateLimit === undefined ? null : Number(rateLimit),
        });
        if (values.json) {
          writeJson(io, { key, apiKey: record });
        } else {
          io.stdout.write(`${key}\n`);
          io.stderr.write(`Created API key ${record.id} (${record.name}) for ${account.email}. Copy it now: it is not shown again.\n`);
        }
        return 0;
      });
    },
  },
  list: {
    usage: 'list --account <email> [--json]',
    async run(args, io) {
      const { values } = parseCommandArgs(args, ACCOUNT);
      const email = requireOption(values.account, '--account');
      return withStore(io, async ({ store }) => {
        const account = await requireAccountByEmail(store.db, email);
        const keys = await createApiKeyService({ db: store.db }).list(account.id);
        if (values.json) writeJson(io, { apiKeys: keys });
        else writeTable(io, keys.map(describeKey), KEY_COLUMNS);
        return 0;
      });
    },
  },
  revoke: {
    usage: 'revoke <key id | sl_live_xxxx prefix> --account <email> [--json]',
    async run(args, io) {
      const { values, positionals } = parseCommandArgs(args, ACCOUNT);
      const handle = requirePositional(positionals, 0, 'key id | prefix');
      const email = requireOption(values.account, '--account');
      return withStore(io, async ({ store, settings }) => {
        const account = await requireAccountByEmail(store.db, email);
        const key = await revokeKey(keyWrites(store.db), OPERATOR, account.id, handle);
        const announced = await announceRevocation(settings, key.id);
        if (values.json) writeJson(io, { apiKey: key, announced });
        else io.stdout.write(`Revoked API key ${key.id} (${key.prefix}…${key.last4}). ${announcementNote(announced)}\n`);
        return 0;
      });
    },
  },
  rotate: {
    usage: 'rotate <key id | sl_live_xxxx prefix> --account <email> [--grace 24h] [--json]',
    async run(args, io) {
      const { values, positionals } = parseCommandArgs(args, { ...ACCOUNT, grace: { type: 'string' } });
      const handle = requirePositional(positionals, 0, 'key id | prefix');
      const email = requireOption(values.account, '--account');
      const graceMs = values.grace === undefined ? undefined : parseDuration(values.grace, '--grace');
      return withStore(io, async ({ store, settings }) => {
        const account = await requireAccountByEmail(store.db, email);
        const rotated = await rotateKey(keyWrites(store.db), OPERATOR, account.id, handle, graceMs === undefined ? {} : { graceMs });
        // The old key's expiry changed: servers must re-read it rather than trust their cached copy.
        await announceRevocation(settings, rotated.previous.id);
        if (values.json) {
          writeJson(io, { key: rotated.key, apiKey: rotated.record, previous: rotated.previous });
        } else {
          io.stdout.write(`${rotated.key}\n`);
          io.stderr.write(
            `Rotated ${rotated.previous.id} → ${rotated.record.id}. The old key works until ${rotated.previous.expiresAt}. Copy the new key now: it is not shown again.\n`,
          );
        }
        return 0;
      });
    },
  },
};

export function run(args: string[], io: CliIO): Promise<number> {
  return runSubcommands('keys', SUBCOMMANDS, args, io);
}
