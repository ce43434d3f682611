import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { createProject } from '../../src/store/projects-repository.ts';
import { createSecretBox } from '../../src/store/secret-box.ts';
import {
  addRecipient,
  addWebhook,
  confirmRecipient,
  createSubscription,
  deleteSubscription,
  deliveryTargets,
  listReportSchedules,
  listSubscriptions,
  unsubscribeRecipient,
} from '../../src/store/subscriptions-repository.ts';
import { describeEachDatabase } from './databases.ts';

const box = createSecretBox(randomBytes(32));
const now = new Date('2026-11-26T10:00:00Z');

describeEachDatabase('subscriptions repository', (fresh) => {
  it('stores reports and alerts per project; schedules carry the project zone', async () => {
    const { store } = await fresh();
    const project = await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'shop.example', timezone: 'Europe/Berlin' });
    const report = await createSubscription(store.db, { projectId: project.id, spec: { kind: 'report', name: 'Weekly', schedule: { cadence: 'weekly', hour: 8 } }, createdBy: null, now });
    const alert = await createSubscription(store.db, {
      projectId: project.id,
      spec: { kind: 'alert', name: 'Clicks', rule: { metric: 'search_clicks', condition: 'change', thresholdPercent: 30, baseline: 'previous_period' } },
      createdBy: null,
      now: new Date(now.getTime() + 1000),
    });
    expect((await listSubscriptions(store.db, project.id)).map((s) => s.spec)).toEqual([report.spec, alert.spec]);
    expect(await listReportSchedules(store.db)).toEqual([{ ...report, timeZone: 'Europe/Berlin' }]);
    expect(await deleteSubscription(store.db, alert.id)).toBe(true);
    expect(await deleteSubscription(store.db, alert.id)).toBe(false);
  });

  it('mails only confirmed recipients, until they unsubscribe; webhook secrets are sealed and open again', async () => {
    const { store } = await fresh();
    const project = await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
    const sub = await createSubscription(store.db, { projectId: project.id, spec: { kind: 'report', name: 'Daily', schedule: { cadence: 'daily', hour: 7 } }, createdBy: null, now });
    const ada = await addRecipient(store.db, sub.id, 'Ada@Example.com', now);
    await addRecipient(store.db, sub.id, 'bob@example.com', now);
    await expect(addRecipient(store.db, sub.id, 'ada@example.com ', now)).rejects.toMatchObject({ param: 'email' });
    await expect(addRecipient(store.db, sub.id, 'not-an-address', now)).rejects.toMatchObject({ param: 'email' });
    const hook = await addWebhook(store.db, box, { subscriptionId: sub.id, url: 'https://hooks.example/in', format: 'slack', now });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await expect(addWebhook(store.db, box, { subscriptionId: sub.id, url: 'ftp://x', format: 'json', now })).rejects.toMatchObject({ param: 'url' });

    expect((await deliveryTargets(store.db, box, sub.id)).recipients).toEqual([]);
    expect(await confirmRecipient(store.db, ada.confirmToken, now)).toBe(true);
    expect(await confirmRecipient(store.db, 'wrong', now)).toBe(false);
    const targets = await deliveryTargets(store.db, box, sub.id);
    expect(targets.recipients).toEqual([{ id: ada.id, email: 'Ada@Example.com' }]);
    expect(targets.webhooks).toEqual([hook]);
    const stored = await store.db.selectFrom('delivery_webhooks').select('secret_ciphertext').executeTakeFirstOrThrow();
    expect(stored.secret_ciphertext).not.toContain(hook.secret.slice(6));

    expect(await unsubscribeRecipient(store.db, ada.unsubscribeToken, now)).toBe(true);
    expect((await deliveryTargets(store.db, box, sub.id)).recipients).toEqual([]);
  });
});
