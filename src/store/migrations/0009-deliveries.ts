// Scheduled reports, alerts and their deliveries (0008 is taken by another change in flight).
// - subscriptions: a project's report (cadence + local hour) or alert rule (metric, condition, threshold, baseline).
// - delivery_recipients: email addresses; mail goes only to confirmed, not unsubscribed ones. Tokens are kept as
//   SHA-256 digests (the links hold the tokens).
// - delivery_webhooks: receivers with their format and signing secret (sealed by the secret box).
// - delivery_jobs: one row per (subscription, period) — the unique idempotency key makes every instance agree on
//   the one job; a worker claims it with a lease, and a job whose lease ran out is claimed again.
// - delivery_sends: one row per target a job has delivered to, so a re-run skips targets already served.
import type { Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('cadence', 'text')
    .addColumn('hour', 'integer')
    .addColumn('metric', 'text')
    .addColumn('condition', 'text')
    .addColumn('threshold_percent', 'integer')
    .addColumn('baseline', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscriptions_project_idx').on('subscriptions').column('project_id').execute();

  await db.schema
    .createTable('delivery_recipients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subscription_id', 'text', (c) => c.notNull().references('subscriptions.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_normalized', 'text', (c) => c.notNull())
    .addColumn('confirm_digest', 'text', (c) => c.notNull().unique())
    .addColumn('unsubscribe_digest', 'text', (c) => c.notNull().unique())
    .addColumn('confirmed_at', 'text')
    .addColumn('unsubscribed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('delivery_recipients_email_unique', ['subscription_id', 'email_normalized'])
    .execute();

  await db.schema
    .createTable('delivery_webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subscription_id', 'text', (c) => c.notNull().references('subscriptions.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('secret_ciphertext', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('delivery_webhooks_subscription_idx').on('delivery_webhooks').column('subscription_id').execute();

  await db.schema
    .createTable('delivery_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('subscription_id', 'text', (c) => c.notNull().references('subscriptions.id').onDelete('cascade'))
    .addColumn('period_key', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_after', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('delivery_jobs_due_idx').on('delivery_jobs').columns(['state', 'run_after']).execute();

  await db.schema
    .createTable('delivery_sends')
    .addColumn('job_id', 'text', (c) => c.notNull().references('delivery_jobs.id').onDelete('cascade'))
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('delivery_sends_pk', ['job_id', 'target'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('delivery_sends').execute();
  await db.schema.dropTable('delivery_jobs').execute();
  await db.schema.dropTable('delivery_webhooks').execute();
  await db.schema.dropTable('delivery_recipients').execute();
  await db.schema.dropTable('subscriptions').execute();
}
