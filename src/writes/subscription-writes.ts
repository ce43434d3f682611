// Subscriptions: create and delete a report or alert, add recipients and webhooks. Editors and admins. Tokens and
// webhook secrets are returned to the caller once and never written to the audit log.
import { notFound } from '../errors/app-error.ts';
import { parseSubscription, WEBHOOK_FORMATS, type SubscriptionFields, type WebhookFormat } from '../domain/subscriptions.ts';
import { invalidParameter } from '../errors/app-error.ts';
import type { SecretBox } from '../store/secret-box.ts';
import {
  addRecipient as insertRecipient,
  addWebhook as insertWebhook,
  createSubscription as insertSubscription,
  deleteSubscription as deleteSubscriptionRow,
  getSubscription,
  type NewRecipient,
  type SubscriptionRecord,
  type WebhookTarget,
} from '../store/subscriptions-repository.ts';
import { actorAccountId, type Actor } from './actor.ts';
import { audited } from './audited.ts';
import { authorize, type ProjectRef } from './authorize.ts';
import type { WriteDeps } from './write-deps.ts';

export async function createSubscription(deps: WriteDeps, actor: Actor, project: ProjectRef, fields: SubscriptionFields): Promise<SubscriptionRecord> {
  return audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'subscription.manage');
    const spec = parseSubscription(fields);
    const subscription = await insertSubscription(trx, { projectId: project.id, spec, createdBy: actorAccountId(actor), now: deps.clock() });
    return { result: subscription, audit: { action: 'subscription.create', subject: subscription.id, projectId: project.id, detail: { kind: spec.kind, name: spec.name } } };
  });
}

async function ownSubscription(deps: WriteDeps, project: ProjectRef, id: string): Promise<SubscriptionRecord> {
  const found = await getSubscription(deps.db, id);
  if (!found || found.projectId !== project.id) throw notFound(`No subscription '${id}' in ${project.key}.`);
  return found;
}

export async function deleteSubscription(deps: WriteDeps, actor: Actor, project: ProjectRef, id: string): Promise<void> {
  const found = await ownSubscription(deps, project, id);
  await audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'subscription.manage');
    if (!(await deleteSubscriptionRow(trx, found.id))) throw notFound(`No subscription '${id}' in ${project.key}.`);
    return { result: undefined, audit: { action: 'subscription.delete', subject: found.id, projectId: project.id, detail: { name: found.spec.name } } };
  });
}

/** The recipient with its confirmation and unsubscribe tokens (for the confirmation mail; not kept in clear). */
export async function addRecipient(deps: WriteDeps, actor: Actor, project: ProjectRef, subscriptionId: string, email: string): Promise<NewRecipient> {
  const found = await ownSubscription(deps, project, subscriptionId);
  return audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'subscription.manage');
    const recipient = await insertRecipient(trx, found.id, email, deps.clock());
    return { result: recipient, audit: { action: 'subscription.add_recipient', subject: found.id, projectId: project.id, detail: { email: email.trim() } } };
  });
}

/** The webhook with its signing secret in clear: show it once. */
export async function addWebhook(deps: WriteDeps & { box: SecretBox }, actor: Actor, project: ProjectRef, subscriptionId: string, input: { url: string; format: string }): Promise<WebhookTarget> {
  const found = await ownSubscription(deps, project, subscriptionId);
  if (!(WEBHOOK_FORMATS as readonly string[]).includes(input.format)) throw invalidParameter('format', `'format' must be one of ${WEBHOOK_FORMATS.join(', ')}; got '${input.format}'.`);
  return audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'subscription.manage');
    const hook = await insertWebhook(trx, deps.box, { subscriptionId: found.id, url: input.url, format: input.format as WebhookFormat, now: deps.clock() });
    return { result: hook, audit: { action: 'subscription.add_webhook', subject: found.id, projectId: project.id, detail: { url: hook.url, format: hook.format } } };
  });
}
