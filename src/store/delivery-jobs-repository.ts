// The delivery job table: one job per (subscription, period), claimed by one worker at a time with a lease.
// - Enqueue inserts by idempotency key and ignores a conflict, so every instance may enqueue the same occasion.
// - Claim is one UPDATE … WHERE id = (SELECT … ) RETURNING: on PostgreSQL the inner SELECT takes the row
//   FOR UPDATE SKIP LOCKED, so concurrent claimers pick different jobs; SQLite runs one writer at a time, which makes
//   the same statement atomic there. A running job whose lease ran out (its worker died) is claimable again.
// - The attempt number is the fencing token: a worker whose lease was taken over can neither record a send nor
//   finish the job, because the row's attempt has moved on.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { StoreDialect } from './database.ts';
import { newId } from './ids.ts';
import type { Database, DeliveryJobsTable } from './schema.ts';

export type JobState = 'pending' | 'running' | 'sent' | 'dead';

export interface DeliveryJob {
  id: string;
  idempotencyKey: string;
  subscriptionId: string;
  periodKey: string;
  state: JobState;
  attempts: number;
  runAfter: string;
  leaseOwner: string | null;
  leaseUntil: string | null;
  lastError: string | null;
}

function toJob(row: Selectable<DeliveryJobsTable>): DeliveryJob {
  return {
    id: row.id,
    idempotencyKey: row.idempotency_key,
    subscriptionId: row.subscription_id,
    periodKey: row.period_key,
    state: row.state as JobState,
    attempts: Number(row.attempts),
    runAfter: row.run_after,
    leaseOwner: row.lease_owner,
    leaseUntil: row.lease_until,
    lastError: row.last_error,
  };
}

/** True when this call created the job; false when another call (any instance) already had. */
export async function enqueueJob(db: Kysely<Database>, input: { idempotencyKey: string; subscriptionId: string; periodKey: string; runAfter: Date; now: Date }): Promise<boolean> {
  const result = await db
    .insertInto('delivery_jobs')
    .values({
      id: newId('job'),
      idempotency_key: input.idempotencyKey,
      subscription_id: input.subscriptionId,
      period_key: input.periodKey,
      state: 'pending',
      attempts: 0,
      run_after: input.runAfter.toISOString(),
      lease_owner: null,
      lease_until: null,
      last_error: null,
      created_at: input.now.toISOString(),
      finished_at: null,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return result !== undefined;
}

export interface ClaimOptions {
  worker: string;
  leaseMs: number;
  now: Date;
}

/** The next due job, leased to `worker`, its attempt counted; undefined when nothing is due. */
export async function claimNextJob(db: Kysely<Database>, dialect: StoreDialect, options: ClaimOptions): Promise<DeliveryJob | undefined> {
  const now = options.now.toISOString();
  const next = db
    .selectFrom('delivery_jobs')
    .select('id')
    .where((eb) => eb.or([eb.and([eb('state', '=', 'pending'), eb('run_after', '<=', now)]), eb.and([eb('state', '=', 'running'), eb('lease_until', '<=', now)])]))
    .orderBy('run_after')
    .orderBy('id')
    .limit(1)
    .$if(dialect === 'postgres', (q) => q.forUpdate().skipLocked());
  const row = await db
    .updateTable('delivery_jobs')
    .set((eb) => ({
      state: 'running',
      lease_owner: options.worker,
      lease_until: new Date(options.now.getTime() + options.leaseMs).toISOString(),
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', '=', next)
    .returningAll()
    .executeTakeFirst();
  return row ? toJob(row) : undefined;
}

function fenced<T extends { where: (...args: any[]) => T }>(query: T, job: Pick<DeliveryJob, 'id' | 'attempts' | 'leaseOwner'>): T {
  return query.where('id', '=', job.id).where('state', '=', 'running').where('attempts', '=', job.attempts).where('lease_owner', '=', job.leaseOwner);
}

/** Extends the lease while the worker still holds it; false means another worker has taken the job over. */
export async function renewLease(db: Kysely<Database>, job: DeliveryJob, leaseMs: number, now: Date): Promise<boolean> {
  const result = await fenced(db.updateTable('delivery_jobs').set({ lease_until: new Date(now.getTime() + leaseMs).toISOString() }), job).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Targets this job has already delivered to, by any attempt. */
export async function sentTargets(db: Kysely<Database>, jobId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('delivery_sends').select('target').where('job_id', '=', jobId).execute();
  return new Set(rows.map((r) => r.target));
}

/** Records a send while the worker holds the job; false (nothing recorded) when the lease has been lost. */
export async function recordSend(db: Kysely<Database>, job: DeliveryJob, target: string, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // Touching the job row first locks it (PostgreSQL) for the rest of this transaction, so a claimer cannot take
    // the job between the check and the insert.
    const held = await fenced(trx.updateTable('delivery_jobs').set({ lease_owner: job.leaseOwner }), job).executeTakeFirst();
    if (Number(held.numUpdatedRows) === 0) return false;
    await trx
      .insertInto('delivery_sends')
      .values({ job_id: job.id, target, attempt: job.attempts, sent_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['job_id', 'target']).doNothing())
      .execute();
    return true;
  });
}

export async function completeJob(db: Kysely<Database>, job: DeliveryJob, now: Date): Promise<boolean> {
  const result = await fenced(db.updateTable('delivery_jobs').set({ state: 'sent', lease_owner: null, lease_until: null, finished_at: now.toISOString(), last_error: null }), job).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** After a failed attempt: pending again after `retryAfterMs`, or dead when `dead` (attempts used up). */
export async function failJob(db: Kysely<Database>, job: DeliveryJob, input: { error: string; dead: boolean; retryAfterMs: number; now: Date }): Promise<boolean> {
  const changes = input.dead
    ? { state: 'dead', lease_owner: null, lease_until: null, last_error: input.error, finished_at: input.now.toISOString() }
    : { state: 'pending', lease_owner: null, lease_until: null, last_error: input.error, run_after: new Date(input.now.getTime() + input.retryAfterMs).toISOString() };
  const result = await fenced(db.updateTable('delivery_jobs').set(changes), job).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Running jobs whose lease ran out after the last attempt: their worker died every time; dead-letter them. */
export async function deadLetterAbandoned(db: Kysely<Database>, maxAttempts: number, now: Date): Promise<number> {
  const result = await db
    .updateTable('delivery_jobs')
    .set({ state: 'dead', lease_owner: null, lease_until: null, last_error: sql<string>`coalesce(last_error, 'lease expired on the last attempt')`, finished_at: now.toISOString() })
    .where('state', '=', 'running')
    .where('lease_until', '<=', now.toISOString())
    .where('attempts', '>=', maxAttempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function getJobByKey(db: Kysely<Database>, idempotencyKey: string): Promise<DeliveryJob | undefined> {
  const row = await db.selectFrom('delivery_jobs').selectAll().where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
  return row ? toJob(row) : undefined;
}

export async function listJobs(db: Kysely<Database>, subscriptionId: string): Promise<DeliveryJob[]> {
  const rows = await db.selectFrom('delivery_jobs').selectAll().where('subscription_id', '=', subscriptionId).orderBy('run_after').execute();
  return rows.map(toJob);
}
