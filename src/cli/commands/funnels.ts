// `siteline funnels create|list|delete`: funnel definitions (the dashboard's stand-in).
import { notFound } from '../../errors/app-error.ts';
import { getFunnelByKey, listFunnelsForProject } from '../../store/funnels-repository.ts';
import type { FunnelRecord, FunnelStep } from '../../store/funnels-repository.ts';
import { getProjectByKey, type ProjectRecord } from '../../store/projects-repository.ts';
import type { Database } from '../../store/schema.ts';
import { OPERATOR } from '../../writes/actor.ts';
import { createFunnel, deleteFunnel } from '../../writes/funnel-writes.ts';
import type { Kysely } from 'kysely';
import type { CliIO } from '../cli-io.ts';
import { withStore } from '../open-store.ts';
import { parseCommandArgs, requireOption, requirePositional, runSubcommands, UsageError, writeJson, writeTable } from '../output.ts';
import type { Subcommand } from '../output.ts';

export const summary = 'Create, list and delete funnels.';

/** `[Name=]type:match:value`, e.g. `Pricing=page:begins_with:/pricing`; the value may contain colons. */
export function parseStep(text: string): FunnelStep {
  const match = /^(?:([^:=]+)=)?(event|page):(exact|begins_with|contains|regex):(.+)$/s.exec(text);
  if (!match?.[2] || !match[3] || !match[4]) {
    throw new UsageError(`--step '${text}' is not [Name=]event|page:exact|begins_with|contains|regex:value`);
  }
  const [, name, type, kind, value] = match;
  return { name: name?.trim() ?? '', type: type as FunnelStep['type'], match: kind as FunnelStep['match'], value };
}

/** The CLI writes as the operator, with the server's clock. */
const cliWrites = (db: Kysely<Database>) => ({ db, clock: () => new Date() });

async function projectOfFunnel(db: Kysely<Database>, projectId: string): Promise<ProjectRecord | undefined> {
  const row = await db.selectFrom('projects').select('key').where('id', '=', projectId).executeTakeFirst();
  return row && getProjectByKey(db, row.key);
}

function toFunnelJson(funnel: FunnelRecord, projectKey: string) {
  return { key: funnel.key, project: projectKey, name: funnel.name, steps: funnel.steps, createdAt: funnel.createdAt, createdVia: funnel.createdVia };
}

const SUBCOMMANDS: Record<string, Subcommand> = {
  create: {
    usage: "create <projectKey> --name <name> --step '[Name=]event:exact:page_view' --step 'page:begins_with:/pricing' ... [--key <key>] [--json]",
    async run(args, io) {
      const { values, positionals } = parseCommandArgs(args, { name: { type: 'string' }, step: { type: 'string', multiple: true }, key: { type: 'string' } });
      const projectKey = requirePositional(positionals, 0, 'projectKey');
      const name = requireOption(values.name, '--name');
      const steps = (values.step ?? []).map(parseStep);
      if (steps.length === 0) throw new UsageError('at least two --step options are required');
      return withStore(io, async ({ store }) => {
        const project = await getProjectByKey(store.db, projectKey);
        if (!project) throw notFound(`No project with the key '${projectKey}'.`);
        const { funnel } = await createFunnel(cliWrites(store.db), OPERATOR, project, { name, steps, key: values.key, createdVia: 'cli' });
        if (values.json) writeJson(io, { funnel: toFunnelJson(funnel, project.key) });
        else io.stdout.write(`Created funnel ${funnel.key} (${funnel.steps.length} steps) in ${project.key}.\n`);
        return 0;
      });
    },
  },
  list: {
    usage: 'list <projectKey> [--json]',
    async run(args, io) {
      const { values, positionals } = parseCommandArgs(args, {});
      const projectKey = requirePositional(positionals, 0, 'projectKey');
      return withStore(io, async ({ store }) => {
        const project = await getProjectByKey(store.db, projectKey);
        if (!project) throw notFound(`No project with the key '${projectKey}'.`);
        const funnels = (await listFunnelsForProject(store.db, project.id)).map((f) => toFunnelJson(f, project.key));
        if (values.json) writeJson(io, { funnels });
        else {
          writeTable(
            io,
            funnels.map((f) => ({ ...f, stepList: f.steps.map((s) => `${s.type}:${s.match}:${s.value}`).join(' → ') })),
            [['key', 'key'], ['name', 'name'], ['stepList', 'steps'], ['createdVia', 'via'], ['createdAt', 'created']],
          );
        }
        return 0;
      });
    },
  },
  delete: {
    usage: 'delete <funnelKey> [--json]',
    async run(args, io) {
      const { values, positionals } = parseCommandArgs(args, {});
      const funnelKey = requirePositional(positionals, 0, 'funnelKey');
      return withStore(io, async ({ store }) => {
        const funnel = await getFunnelByKey(store.db, funnelKey);
        const project = funnel && (await projectOfFunnel(store.db, funnel.projectId));
        if (!funnel || !project) throw notFound(`No funnel with the key '${funnelKey}'.`);
        await deleteFunnel(cliWrites(store.db), OPERATOR, project, funnel, funnelKey);
        if (values.json) writeJson(io, { funnel: funnelKey, deleted: true });
        else io.stdout.write(`Deleted funnel ${funnelKey}.\n`);
        return 0;
      });
    },
  },
};

export function run(args: string[], io: CliIO): Promise<number> {
  return runSubcommands('funnels', SUBCOMMANDS, args, io);
}
