// A project's subscriptions and where they go: email recipients (confirmed before any mail, unsubscribed by a link)
// and webhooks (with a signing secret sealed at rest and handed out once, at creation).
import type { Kysely, Selectable } from 'kysely';
import { newSecret, sha256Hex } from '../auth/oauth/secrets.ts';
import type { SubscriptionSpec, WebhookFormat } from '../domain/subscriptions.ts';
import { invalidParameter } from '../errors/app-error.ts';
import { normalizeEmail } from './accounts-repository.ts';
import { isUniqueViolation } from './db-errors.ts';
import { newId } from './ids.ts';
import type { Database, SubscriptionsTable } from './schema.ts';
import type { SecretBox } from './secret-box.ts';

export interface SubscriptionRecord {
  id: string;
  projectId: string;
  spec: SubscriptionSpec;
  createdBy: string | null;
  createdAt: string;
}

function toSpec(row: Selectable<SubscriptionsTable>): SubscriptionSpec {
  if (row.kind === 'report') return { kind: 'report', name: row.name, schedule: { cadence: row.cadence as 'daily', hour: row.hour ?? 0 } };
  const metric = row.metric as 'sessions';
  if (row.condition === 'change') {
    return { kind: 'alert', name: row.name, rule: { metric, condition: 'change', thresholdPercent: row.threshold_percent ?? 0, baseline: row.baseline as 'previous_period' } };
  }
  return { kind: 'alert', name: row.name, rule: { metric, condition: 'anomaly' } };
}

function toSubscription(row: Selectable<SubscriptionsTable>): SubscriptionRecord {
  return { id: row.id, projectId: row.project_id, spec: toSpec(row), createdBy: row.created_by, createdAt: row.created_at };
}

export async function createSubscription(db: Kysely<Database>, input: { projectId: string; spec: SubscriptionSpec; createdBy: string | null; now: Date }): Promise<SubscriptionRecord> {
  const { spec } = input;
  const row = {
    id: newId('sub'),
    project_id: input.projectId,
    kind: spec.kind,
    name: spec.name,
    cadence: spec.kind === 'report' ? spec.schedule.cadence : null,
    hour: spec.kind === 'report' ? spec.schedule.hour : null,
    metric: spec.kind === 'alert' ? spec.rule.metric : null,
    condition: spec.kind === 'alert' ? spec.rule.condition : null,
    threshold_percent: spec.kind === 'alert' && spec.rule.condition === 'change' ? spec.rule.thresholdPercent : null,
    baseline: spec.kind === 'alert' && spec.rule.condition === 'change' ? spec.rule.baseline : null,
    created_by: input.createdBy,
    created_at: input.now.toISOString(),
  };
  await db.insertInto('subscriptions').values(row).execute();
  return toSubscription(row);
}

export async function listSubscriptions(db: Kysely<Database>, projectId: string): Promise<SubscriptionRecord[]> {
  const rows = await db.selectFrom('subscriptions').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('id').execute();
  return rows.map(toSubscription);
}

export async function getSubscription(db: Kysely<Database>, id: string): Promise<SubscriptionRecord | undefined> {
  const row = await db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toSubscription(row) : undefined;
}

export async function deleteSubscription(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('subscriptions').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Report subscriptions with their project's time zone: what the scheduler walks. */
export async function listReportSchedules(db: Kysely<Database>): Promise<Array<SubscriptionRecord & { timeZone: string }>> {
  const rows = await db
    .selectFrom('subscriptions')
    .innerJoin('projects', 'projects.id', 'subscriptions.project_id')
    .selectAll('subscriptions')
    .select('projects.timezone')
    .where('subscriptions.kind', '=', 'report')
    .orderBy('subscriptions.id')
    .execute();
  return rows.map((row) => ({ ...toSubscription(row), timeZone: row.timezone }));
}

export interface NewRecipient {
  id: string;
  /** Go into the confirmation mail and every report's footer; only their digests are stored. */
  confirmToken: string;
  unsubscribeToken: string;
}

const EMAIL_SHAPE = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,255}\.[^\s@<>"]{2,}$/;

export async function addRecipient(db: Kysely<Database>, subscriptionId: string, email: string, now: Date): Promise<NewRecipient> {
  const trimmed = email.trim();
  if (!EMAIL_SHAPE.test(trimmed)) throw invalidParameter('email', `'${trimmed}' is not an email address.`);
  const recipient = { id: newId('rcp'), confirmToken: newSecret(), unsubscribeToken: newSecret() };
  try {
    await db
      .insertInto('delivery_recipients')
      .values({
        id: recipient.id,
        subscription_id: subscriptionId,
        email: trimmed,
        email_normalized: normalizeEmail(trimmed),
        confirm_digest: sha256Hex(recipient.confirmToken),
        unsubscribe_digest: sha256Hex(recipient.unsubscribeToken),
        confirmed_at: null,
        unsubscribed_at: null,
        created_at: now.toISOString(),
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidParameter('email', `${trimmed} already receives this subscription.`);
    throw error;
  }
  return recipient;
}

/** True when the token confirmed a recipient (again is fine: a second click changes nothing). */
export async function confirmRecipient(db: Kysely<Database>, token: string, now: Date): Promise<boolean> {
  const row = await db.selectFrom('delivery_recipients').select(['id', 'confirmed_at']).where('confirm_digest', '=', sha256Hex(token)).executeTakeFirst();
  if (!row) return false;
  if (row.confirmed_at === null) await db.updateTable('delivery_recipients').set({ confirmed_at: now.toISOString() }).where('id', '=', row.id).execute();
  return true;
}

export async function unsubscribeRecipient(db: Kysely<Database>, token: string, now: Date): Promise<boolean> {
  const row = await db.selectFrom('delivery_recipients').select(['id', 'unsubscribed_at']).where('unsubscribe_digest', '=', sha256Hex(token)).executeTakeFirst();
  if (!row) return false;
  if (row.unsubscribed_at === null) await db.updateTable('delivery_recipients').set({ unsubscribed_at: now.toISOString() }).where('id', '=', row.id).execute();
  return true;
}

export interface WebhookTarget {
  id: string;
  url: string;
  format: WebhookFormat;
  secret: string;
}

/** Standard Webhooks secrets: `whsec_` and base64 of 32 random bytes. */
function newWebhookSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
}

function parseWebhookUrl(url: string): string {
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:') return parsed.toString();
  } catch {
    // reported below
  }
  throw invalidParameter('url', `'${url}' is not an http(s) URL.`);
}

/** The new webhook with its secret in clear: the only time it is shown. */
export async function addWebhook(db: Kysely<Database>, box: SecretBox, input: { subscriptionId: string; url: string; format: WebhookFormat; now: Date }): Promise<WebhookTarget> {
  const hook = { id: newId('whk'), url: parseWebhookUrl(input.url), format: input.format, secret: newWebhookSecret() };
  await db
    .insertInto('delivery_webhooks')
    .values({ id: hook.id, subscription_id: input.subscriptionId, url: hook.url, format: hook.format, secret_ciphertext: box.seal(hook.secret, hook.id), created_at: input.now.toISOString() })
    .execute();
  return hook;
}

export interface DeliveryTargets {
  /** Confirmed and still subscribed. */
  recipients: Array<{ id: string; email: string }>;
  webhooks: WebhookTarget[];
}

export async function deliveryTargets(db: Kysely<Database>, box: SecretBox, subscriptionId: string): Promise<DeliveryTargets> {
  const recipients = await db
    .selectFrom('delivery_recipients')
    .select(['id', 'email'])
    .where('subscription_id', '=', subscriptionId)
    .where('confirmed_at', 'is not', null)
    .where('unsubscribed_at', 'is', null)
    .orderBy('id')
    .execute();
  const hooks = await db.selectFrom('delivery_webhooks').selectAll().where('subscription_id', '=', subscriptionId).orderBy('id').execute();
  return {
    recipients,
    webhooks: hooks.map((h) => ({ id: h.id, url: h.url, format: h.format as WebhookFormat, secret: box.open(h.secret_ciphertext, h.id) })),
  };
}
