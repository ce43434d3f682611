// `siteline projects add|list|connect|disconnect|grant|brand-terms`: sites, their provider connections, who sees
// them and which search queries count as brand queries.
import { readFile } from 'node:fs/promises';
import { defaultBrandTerms } from '../../domain/brand-terms.ts';
import { isSource, SOURCES } from '../../domain/sources.ts';
import type { Source } from '../../domain/sources.ts';
import { isProjectRole, PROJECT_ROLES, type ProjectRole } from '../../domain/access-policy.ts';
import { notFound } from '../../errors/app-error.ts';
import { requireAccountByEmail } from '../../store/accounts-repository.ts';
import { parseCredential } from '../../store/credential-shapes.ts';
import { connectDataSource } from '../../connections/connect-data-source.ts';
import { listSourcesForProjects } from '../../store/data-sources-repository.ts';
import { createCheckProviders } from '../check-providers.ts';
import type { CredentialKind, DataSourceRecord } from '../../store/data-sources-repository.ts';
import type { Database } from '../../store/schema.ts';
import { getProjectByKey, listProjects, listProjectsForAccount } from '../../store/projects-repository.ts';
import { OPERATOR } from '../../writes/actor.ts';
import { grantAccess } from '../../writes/access-writes.ts';
import { createProject, setBrandTerms } from '../../writes/project-writes.ts';
import { disconnectSources } from '../../writes/source-writes.ts';
import type { ProjectRecord } from '../../store/projects-repository.ts';
import type { Kysely } from 'kysely';
import type { CliIO } from '../cli-io.ts';
import { withStore } from '../open-store.ts';
import { parseCommandArgs, requireOption, requirePositional, runSubcommands, UsageError, writeJson, writeTable } from '../output.ts';
import type { Subcommand } from '../output.ts';

export const summary = 'Add and list projects; connect their data sources; grant accounts access; set brand terms.';

async function requireProject(db: Kysely<Database>, key: string): Promise<ProjectRecord> {
  const project = await getProjectByKey(db, key);
  if (!project) throw notFound(`No project with the key '${key}'.`);
  return project;
}

function requireRole(text: string | undefined): ProjectRole {
  if (text === undefined) return 'viewer';
  if (!isProjectRole(text)) throw new UsageError(`--role '${text}' is not a role; use ${PROJECT_ROLES.join(', ')}`);
  return text;
}

/** The CLI writes as the operator, with the server's clock. */
const cliWrites = (db: Kysely<Database>) => ({ db, clock: () => new Date() });

function requireSource(text: string): Source {
  if (!isSource(text)) throw new UsageError(`'${text}' is not a data source; use ${SOURCES.join(', ')}`);
  return text;
}

/** The project as scripts see it: data sources by word, with status; never credentials. */
function toProjectJson(project: ProjectRecord, sources: DataSourceRecord[]) {
  const dataSources = Object.fromEntries(
    SOURCES.map((source) => {
      const record = sources.find((s) => s.source === source);
      if (!record) return [source, { connected: false, status: 'not_connected' }];
      return [source, {
        connected: true,
        status: record.status,
        ...(record.propertyId === null ? {} : { propertyId: record.propertyId }),
        ...(record.siteUrl === null ? {} : { siteUrl: record.siteUrl }),
        credentialKind: record.credentialKind,
        ...(record.statusMessage === null ? {} : { statusMessage: record.statusMessage }),
      }];
    }),
  );
  return { ...project, dataSources };
}

const CREDENTIAL_FLAGS: Record<string, CredentialKind> = {
  'service-account': 'service_account',
  'oauth-client': 'oauth_refresh_token',
  'api-key-file': 'api_key',
};

const SUBCOMMANDS: Record<string, Subcommand> = {
  add: {
    usage: 'add --key <key> --name <name> --domain <domain> [--timezone UTC] [--currency USD] [--grant <email>]... [--role viewer|editor|admin] [--json]',
    async run(args, io) {
      const { values } = parseCommandArgs(args, {
        key: { type: 'string' },
        name: { type: 'string' },
        domain: { type: 'string' },
        timezone: { type: 'string' },
        currency: { type: 'string' },
        grant: { type: 'string', multiple: true },
        role: { type: 'string' },
      });
      const input = { key: requireOption(values.key, '--key'), name: requireOption(values.name, '--name'), domain: requireOption(values.domain, '--domain') };
      // Accounts granted at creation administer the project unless --role says otherwise.
      const role = values.role === undefined ? 'admin' : requireRole(values.role);
      return withStore(io, async ({ store }) => {
        const accounts = await Promise.all((values.grant ?? []).map((email) => requireAccountByEmail(store.db, email)));
        const project = await createProject(cliWrites(store.db), OPERATOR, { ...input, timezone: values.timezone, currency: values.currency });
        for (const account of accounts) await grantAccess(cliWrites(store.db), OPERATOR, project, account.id, role);
        if (values.json) writeJson(io, { project: toProjectJson(project, []), grantedTo: accounts.map((a) => a.email) });
        else {
          io.stdout.write(`Added project ${project.key} (${project.domain}, ${project.timezone}, ${project.currency}).\n`);
          if (accounts.length > 0) io.stdout.write(`Access granted to ${accounts.map((a) => a.email).join(', ')} (${role}).\n`);
          else io.stdout.write(`No account can see it yet: siteline projects grant ${project.key} --account <email> --role admin\n`);
        }
        return 0;
      });
    },
  },
  list: {
    usage: 'list [--account <email>] [--json]',
    async run(args, io) {
      const { values } = parseCommandArgs(args, { account: { type: 'string' } });
      return withStore(io, async ({ store }) => {
        const projects = values.account === undefined
          ? await listProjects(store.db)
          : await listProjectsForAccount(store.db, (await requireAccountByEmail(store.db, values.account)).id);
        const sources = await listSourcesForProjects(store.db, projects.map((p) => p.id));
        const rows = projects.map((p) => toProjectJson(p, sources.filter((s) => s.projectId === p.id)));
        if (values.json) writeJson(io, { projects: rows });
        else {
          writeTable(
            io,
            rows.map((p) => ({ ...p, ...Object.fromEntries(SOURCES.map((s) => [s, p.dataSources[s]?.status])) })),
            [['key', 'key'], ['name', 'name'], ['domain', 'domain'], ['timezone', 'timezone'], ['currency', 'currency'], ...SOURCES.map((s) => [s, s] as const)],
          );
        }
        return 0;
      });
    },
  },
  connect: {
    usage:
      'connect <projectKey> <analytics|engine1|engine2> (--property-id <digits> | --site-url <url>) (--service-account <file.json> | --oauth-client <file.json> | --api-key-file <file>) [--no-check | --force] [--json]',
    async run(args, io) {
      const { values, positionals } = parseCommandArgs(args, {
        'property-id': { type: 'string' },
        'site-url': { type: 'string' },
        'service-account': { type: 'string' },
        'oauth-client': { type: 'string' },
        'api-key-file': { type: 'string' },
        'no-check': { type: 'boolean' },
        force: { type: 'boolean' },
      });
      const projectKey = requirePositional(positionals, 0, 'projectKey');
      const source = requireSource(requirePositional(positionals, 1, 'source'));
      if (values['no-check'] && values.force) throw new UsageError('--no-check and --force exclude each other');
      if (source === 'analytics' && values['property-id'] === undefined) throw new UsageError('analytics needs --property-id');
      if (source !== 'analytics' && values['site-url'] === undefined) throw new UsageError(`${source} needs --site-url`);
      const given = Object.keys(CREDENTIAL_FLAGS).filter((flag) => values[flag as keyof typeof values] !== undefined);
      if (given.length !== 1 || !given[0]) throw new UsageError(`give exactly one of ${Object.keys(CREDENTIAL_FLAGS).map((f) => `--${f}`).join(', ')}`);
      const flag = given[0];
      const path = values[flag as keyof typeof values] as string;
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch {
        throw new UsageError(`cannot read --${flag} file '${path}'`);
      }
      const credential = parseCredential(CREDENTIAL_FLAGS[flag] as CredentialKind, text);
      return withStore(io, async ({ store, settings, secretBox }) => {
        const project = await requireProject(store.db, projectKey);
        const check = values['no-check'] !== true;
        const providers = check ? await createCheckProviders(settings) : undefined;
        const { record, adopted } = await connectDataSource({ ...cliWrites(store.db), box: secretBox(), providers }, OPERATOR, project, source, {
          propertyId: values['property-id'],
          siteUrl: values['site-url'],
          credential,
          check,
          force: values.force === true,
        });
        const { projectId: _projectId, ...shown } = record;
        if (values.json) writeJson(io, { project: project.key, dataSource: shown, adopted });
        else {
          const state = !check ? 'not checked' : record.status === 'ok' ? 'checked' : `check failed, stored with status error: ${record.statusMessage}`;
          io.stdout.write(`Connected ${source} to ${project.key} (${record.propertyId ?? record.siteUrl}, ${record.credentialKind}; stored encrypted; ${state}).\n`);
          if (adopted.timezone) io.stdout.write(`The project's time zone is now ${adopted.timezone}, the analytics property's (was ${project.timezone}).\n`);
          if (adopted.currency) io.stdout.write(`The project's currency is now ${adopted.currency}, the analytics property's (was ${project.currency}).\n`);
        }
        return 0;
      });
    },
  },
  disconnect: {
    usage: 'disconnect <projectKey> <analytics|engine1|engine2> [--json]',
    async run(args, io) {
      const { values, positionals } = parseCommandArgs(args, {});
      const projectKey = requirePositional(positionals, 0, 'projectKey');
      const source = requireSource(requirePositional(positionals, 1, 'source'));
      return withStore(io, async ({ store }) => {
        const project = await requireProject(store.db, projectKey);
        await disconnectSources(cliWrites(store.db), OPERATOR, project, [source]);
        if (values.json) writeJson(io, { project: project.key, source, disconnected: true });
        else io.stdout.write(`Disconnected ${source} from ${project.key}; its credential was deleted.\n`);
        return 0;
      });
    },
  },
  grant: {
    usage: 'grant <projectKey> --account <email> [--role viewer|editor|admin] [--json]',
    async run(args, io) {
      const { values, positionals } = parseCommandArgs(args, { account: { type: 'string' }, role: { type: 'string' } });
      const projectKey = requirePositional(positionals, 0, 'projectKey');
      const email = requireOption(values.account, '--account');
      const role = requireRole(values.role);
      return withStore(io, async ({ store }) => {
        const project = await requireProject(store.db, projectKey);
        const account = await requireAccountByEmail(store.db, email);
        // Also how a project whose admins are gone is recovered: grant an account the admin role.
        await grantAccess(cliWrites(store.db), OPERATOR, project, account.id, role);
        if (values.json) writeJson(io, { project: project.key, account: account.email, role, granted: true });
        else io.stdout.write(`${account.email} is now ${role} of ${project.key}.\n`);
        return 0;
      });
    },
  },
  'brand-terms': {
    usage: 'brand-terms <projectKey> [--term <term>]... [--none | --default] [--json]',
    async run(args, io) {
      const { values, positionals } = parseCommandArgs(args, {
        term: { type: 'string', multiple: true },
        none: { type: 'boolean' },
        default: { type: 'boolean' },
      });
      const projectKey = requirePositional(positionals, 0, 'projectKey');
      const terms = values.term ?? [];
      const modes = [terms.length > 0, values.none === true, values.default === true].filter(Boolean).length;
      if (modes > 1) throw new UsageError('--term, --none and --default exclude each other');
      // No flag shows the terms; --term replaces them all; --none says the site has no brand queries; --default
      // goes back to the terms derived from the domain.
      const change = terms.length > 0 ? terms : values.none ? [] : values.default ? null : undefined;
      return withStore(io, async ({ store }) => {
        const project = await requireProject(store.db, projectKey);
        let brandTerms = project.brandTerms ?? null;
        if (change !== undefined) {
          brandTerms = await setBrandTerms(cliWrites(store.db), OPERATOR, project, change);
        }
        if (values.json) writeJson(io, { project: project.key, brandTerms, ...brandTermsInEffect(project, brandTerms) });
        else io.stdout.write(describeBrandTerms(project, brandTerms, change !== undefined));
        return 0;
      });
    },
  },
};

/** What search insights use: the stored list, or without one the terms derived from the domain. */
function brandTermsInEffect(project: ProjectRecord, brandTerms: string[] | null) {
  return { isDefault: brandTerms === null, inEffect: brandTerms ?? defaultBrandTerms(project.domain) };
}

function describeBrandTerms(project: ProjectRecord, brandTerms: string[] | null, changed: boolean): string {
  const now = changed ? 'now ' : '';
  const key = project.key;
  const quoted = (terms: string[]) => terms.map((t) => `'${t}'`).join(', ');
  if (brandTerms === null) return `${key}: brand terms are ${now}derived from the domain: ${quoted(defaultBrandTerms(project.domain))}.\n`;
  if (brandTerms.length === 0) return `${key}: ${now}no query counts as a brand query.\n`;
  return `${key}: brand terms are ${now}${quoted(brandTerms)}.\n`;
}

export function run(args: string[], io: CliIO): Promise<number> {
  return runSubcommands('projects', SUBCOMMANDS, args, io);
}
