// The delivery job engine: enqueue each report occasion once (any instance may try; the idempotency key keeps one
// job), then claim due jobs with a lease and deliver them target by target. A send is recorded per target before
// the next one starts, so a job re-run after its worker died skips what was already delivered; each send carries a
// stable id (`<idempotency key>:<target>`) so a receiver can drop the one send that may repeat — the one in flight
// when the worker died, before its record was written.
import type { Kysely } from 'kysely';
import { idempotencyKeyOf, MAX_ATTEMPTS, retryDelayMs, spreadOffsetMs } from '../domain/delivery-timing.ts';
import { latestDueOccasion } from '../domain/subscriptions.ts';
import type { StoreDialect } from '../store/database.ts';
import {
  claimNextJob,
  completeJob,
  deadLetterAbandoned,
  enqueueJob,
  failJob,
  recordSend,
  renewLease,
  sentTargets,
  type DeliveryJob,
} from '../store/delivery-jobs-repository.ts';
import type { Database } from '../store/schema.ts';
import { listReportSchedules } from '../store/subscriptions-repository.ts';

/** One place a job delivers to: `email:<recipient id>` or `webhook:<webhook id>`. */
export interface DeliveryTarget {
  key: string;
}

export interface Delivery<T extends DeliveryTarget> {
  job: DeliveryJob;
  target: T;
  /** Stable across attempts and instances: the webhook id, the mail's Message-ID. */
  sendId: string;
}

export interface EngineDeps<T extends DeliveryTarget> {
  db: Kysely<Database>;
  dialect: StoreDialect;
  clock: () => Date;
  /** This instance's name in leases (host and process id, say). */
  worker: string;
  leaseMs: number;
  targetsOf(job: DeliveryJob): Promise<T[]>;
  send(delivery: Delivery<T>): Promise<void>;
  maxAttempts?: number;
  spreadWindowMs?: number;
}

/** Enqueues every report occasion that has fallen due since its subscription was made; returns how many were new. */
export async function enqueueDueReports(deps: Pick<EngineDeps<DeliveryTarget>, 'db' | 'clock' | 'spreadWindowMs'>): Promise<number> {
  const now = deps.clock();
  let created = 0;
  for (const subscription of await listReportSchedules(deps.db)) {
    if (subscription.spec.kind !== 'report') continue;
    const occasion = latestDueOccasion(subscription.spec.schedule, subscription.timeZone, now.getTime());
    if (occasion.dueAt < Date.parse(subscription.createdAt)) continue;
    const idempotencyKey = idempotencyKeyOf(subscription.id, occasion.periodKey);
    const runAfter = new Date(occasion.dueAt + spreadOffsetMs(idempotencyKey, deps.spreadWindowMs));
    if (await enqueueJob(deps.db, { idempotencyKey, subscriptionId: subscription.id, periodKey: occasion.periodKey, runAfter, now })) created += 1;
  }
  return created;
}

/** What one turn of the engine did with the job it claimed. */
export type RunOutcome = { outcome: 'idle' } | { outcome: 'sent' | 'lost' | 'retry' | 'dead'; job: DeliveryJob; delivered: string[] };

async function deliverAll<T extends DeliveryTarget>(deps: EngineDeps<T>, job: DeliveryJob, delivered: string[]): Promise<boolean> {
  const done = await sentTargets(deps.db, job.id);
  for (const target of await deps.targetsOf(job)) {
    if (done.has(target.key)) continue;
    if (!(await renewLease(deps.db, job, deps.leaseMs, deps.clock()))) return false;
    await deps.send({ job, target, sendId: `${job.idempotencyKey}:${target.key}` });
    if (!(await recordSend(deps.db, job, target.key, deps.clock()))) return false;
    delivered.push(target.key);
  }
  return true;
}

/** Claims one due job and runs it to the end: sent, retried later, dead-lettered, or lost to another worker. */
export async function runNextJob<T extends DeliveryTarget>(deps: EngineDeps<T>): Promise<RunOutcome> {
  const maxAttempts = deps.maxAttempts ?? MAX_ATTEMPTS;
  await deadLetterAbandoned(deps.db, maxAttempts, deps.clock());
  const job = await claimNextJob(deps.db, deps.dialect, { worker: deps.worker, leaseMs: deps.leaseMs, now: deps.clock() });
  if (!job) return { outcome: 'idle' };
  const delivered: string[] = [];
  try {
    if (!(await deliverAll(deps, job, delivered))) return { outcome: 'lost', job, delivered };
    return { outcome: (await completeJob(deps.db, job, deps.clock())) ? 'sent' : 'lost', job, delivered };
  } catch (error) {
    const dead = job.attempts >= maxAttempts;
    const message = error instanceof Error ? error.message : String(error);
    const kept = await failJob(deps.db, job, { error: message.slice(0, 500), dead, retryAfterMs: retryDelayMs(job.attempts), now: deps.clock() });
    return { outcome: kept ? (dead ? 'dead' : 'retry') : 'lost', job, delivered };
  }
}
