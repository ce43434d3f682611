// Funnel definitions stored by Siteline: ordered steps matched against events or pages. Creation through an MCP
// confirmation token is idempotent: the token's id is unique, so a replay returns the funnel already created.
import type { Kysely, Selectable } from 'kysely';
import { RE2JS } from 're2js';
import { invalidParameter } from '../errors/app-error.ts';
import type { FieldError } from '../errors/app-error.ts';
import { isUniqueViolation, uniqueViolationTarget } from './db-errors.ts';
import { newId } from './ids.ts';
import type { Database, FunnelsTable } from './schema.ts';
import { assertSlug, slugWithSuffix } from './slugs.ts';

export const STEP_TYPES = ['event', 'page'] as const;
export const STEP_MATCHES = ['exact', 'begins_with', 'contains', 'regex'] as const;
export const FUNNEL_CREATORS = ['dashboard', 'mcp', 'cli'] as const;
export const MIN_FUNNEL_STEPS = 2;
export const MAX_FUNNEL_STEPS = 10;
/** Funnel and step names; step values (event names, paths, regexes). */
export const MAX_FUNNEL_NAME_LENGTH = 100;
export const MAX_STEP_VALUE_LENGTH = 500;

export interface FunnelStep {
  name: string;
  type: (typeof STEP_TYPES)[number];
  match: (typeof STEP_MATCHES)[number];
  value: string;
}

export type FunnelCreator = (typeof FUNNEL_CREATORS)[number];

export interface FunnelRecord {
  id: string;
  key: string;
  projectId: string;
  name: string;
  steps: FunnelStep[];
  createdAt: string;
  createdVia: FunnelCreator;
  createdByAccountId: string | null;
  confirmationId: string | null;
}

export interface NewFunnel {
  projectId: string;
  name: string;
  steps: readonly FunnelStep[];
  /** Generated from the name plus a random suffix when omitted. */
  key?: string | undefined;
  createdVia: FunnelCreator;
  createdByAccountId?: string | null | undefined;
  confirmationId?: string | null | undefined;
  now?: Date;
}

function toFunnel(row: Selectable<FunnelsTable>): FunnelRecord {
  return {
    id: row.id,
    key: row.key,
    projectId: row.project_id,
    name: row.name,
    steps: JSON.parse(row.steps) as FunnelStep[],
    createdAt: row.created_at,
    createdVia: row.created_via as FunnelCreator,
    createdByAccountId: row.created_by_account,
    confirmationId: row.confirmation_id,
  };
}

/** Every problem with the steps at once, each naming the step. Regexes must be RE2 (what the provider runs). */
export function validateFunnelSteps(steps: readonly FunnelStep[]): FunnelStep[] {
  const errors: FieldError[] = [];
  if (steps.length < MIN_FUNNEL_STEPS || steps.length > MAX_FUNNEL_STEPS) {
    errors.push({ param: 'steps', code: 'invalid_length', message: `A funnel needs ${MIN_FUNNEL_STEPS} to ${MAX_FUNNEL_STEPS} steps; got ${steps.length}.` });
  }
  const cleaned = steps.map((step, index) => {
    const param = `steps[${index}]`;
    const value = typeof step.value === 'string' ? step.value.trim() : '';
    if (!(STEP_TYPES as readonly string[]).includes(step.type)) {
      errors.push({ param: `${param}.type`, code: 'invalid_value', message: `Step ${index + 1}: type '${step.type}' is not one of ${STEP_TYPES.join(', ')}.` });
    }
    if (!(STEP_MATCHES as readonly string[]).includes(step.match)) {
      errors.push({ param: `${param}.match`, code: 'invalid_value', message: `Step ${index + 1}: match '${step.match}' is not one of ${STEP_MATCHES.join(', ')}.` });
    }
    if (!value || value.length > MAX_STEP_VALUE_LENGTH) {
      errors.push({ param: `${param}.value`, code: 'invalid_value', message: `Step ${index + 1}: the value must be 1–${MAX_STEP_VALUE_LENGTH} characters.` });
    } else if (step.match === 'regex') {
      try {
        RE2JS.compile(value);
      } catch {
        errors.push({ param: `${param}.value`, code: 'invalid_regex', message: `Step ${index + 1}: '${value}' is not a valid RE2 regular expression.` });
      }
    }
    const name = (typeof step.name === 'string' ? step.name.trim() : '') || value;
    if (name.length > MAX_FUNNEL_NAME_LENGTH) {
      errors.push({ param: `${param}.name`, code: 'invalid_value', message: `Step ${index + 1}: the name must be at most ${MAX_FUNNEL_NAME_LENGTH} characters.` });
    }
    return { name, type: step.type, match: step.match, value };
  });
  if (errors.length > 0) throw invalidParameter(errors[0]?.param ?? 'steps', errors.map((e) => e.message).join(' '), errors);
  return cleaned;
}

export async function createFunnel(db: Kysely<Database>, input: NewFunnel): Promise<FunnelRecord> {
  const name = input.name.trim();
  if (!name || name.length > 100) throw invalidParameter('name', 'The funnel name must be 1–100 characters.');
  if (!(FUNNEL_CREATORS as readonly string[]).includes(input.createdVia)) {
    throw invalidParameter('createdVia', `'${input.createdVia}' is not one of ${FUNNEL_CREATORS.join(', ')}.`);
  }
  const steps = validateFunnelSteps(input.steps);
  const row = {
    id: newId('fnl'),
    key: input.key === undefined ? slugWithSuffix(name) : assertSlug('key', input.key),
    project_id: input.projectId,
    name,
    steps: JSON.stringify(steps),
    created_at: (input.now ?? new Date()).toISOString(),
    created_via: input.createdVia,
    created_by_account: input.createdByAccountId ?? null,
    confirmation_id: input.confirmationId ?? null,
  };
  try {
    await db.insertInto('funnels').values(row).execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    if (row.confirmation_id !== null && /confirmation_id/.test(uniqueViolationTarget(error))) {
      const existing = await findFunnelByConfirmationId(db, row.confirmation_id);
      if (existing) return existing;
    }
    throw invalidParameter('key', `A funnel with the key '${row.key}' already exists.`);
  }
  return toFunnel(row);
}

/** Oldest first. */
export async function listFunnelsForProject(db: Kysely<Database>, projectId: string): Promise<FunnelRecord[]> {
  return listFunnelsForProjects(db, [projectId]);
}

export async function getFunnelByKey(db: Kysely<Database>, key: string): Promise<FunnelRecord | undefined> {
  const row = await db.selectFrom('funnels').selectAll().where('key', '=', key).executeTakeFirst();
  return row && toFunnel(row);
}

export async function findFunnelByConfirmationId(db: Kysely<Database>, confirmationId: string): Promise<FunnelRecord | undefined> {
  const row = await db.selectFrom('funnels').selectAll().where('confirmation_id', '=', confirmationId).executeTakeFirst();
  return row && toFunnel(row);
}

export async function deleteFunnel(db: Kysely<Database>, key: string): Promise<boolean> {
  const result = await db.deleteFrom('funnels').where('key', '=', key).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Funnels of several projects at once (for batching loaders), oldest first within each project. */
export async function listFunnelsForProjects(db: Kysely<Database>, projectIds: readonly string[]): Promise<FunnelRecord[]> {
  if (projectIds.length === 0) return [];
  const rows = await db
    .selectFrom('funnels')
    .selectAll()
    .where('project_id', 'in', [...projectIds])
    .orderBy('project_id')
    .orderBy('created_at')
    .orderBy('key')
    .execute();
  return rows.map(toFunnel);
}
