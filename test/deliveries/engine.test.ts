// The delivery engine on each database: one job per (subscription, period) however many instances enqueue it,
// retries with backoff then a dead letter, and — with two workers on one database — a worker dying mid-send loses
// nothing and sends nothing twice.
import { expect, it } from 'vitest';
import { enqueueDueReports, runNextJob, type Delivery, type DeliveryTarget, type EngineDeps } from '../../src/deliveries/engine.ts';
import { idempotencyKeyOf } from '../../src/domain/delivery-timing.ts';
import type { Store } from '../../src/store/database.ts';
import { claimNextJob, enqueueJob, getJobByKey, listJobs } from '../../src/store/delivery-jobs-repository.ts';
import { createProject } from '../../src/store/projects-repository.ts';
import { createSubscription } from '../../src/store/subscriptions-repository.ts';
import { describeEachDatabase } from '../store/databases.ts';

const TARGETS: DeliveryTarget[] = [{ key: 'email:a' }, { key: 'email:b' }, { key: 'webhook:c' }];

/** A clock tests move by hand, shared by both workers (one database, one time). */
function manualClock(start: string) {
  let now = Date.parse(start);
  return { clock: () => new Date(now), advance: (ms: number) => (now += ms) };
}

async function weeklyReport(store: Store, createdAt: Date) {
  const project = await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'shop.example', timezone: 'Europe/Berlin' });
  return createSubscription(store.db, { projectId: project.id, spec: { kind: 'report', name: 'Weekly', schedule: { cadence: 'weekly', hour: 8 } }, createdBy: null, now: createdAt });
}

function worker(store: Store, clock: () => Date, name: string, send: (d: Delivery<DeliveryTarget>) => Promise<void>, extra: Partial<EngineDeps<DeliveryTarget>> = {}): EngineDeps<DeliveryTarget> {
  return { db: store.db, dialect: store.dialect, clock, worker: name, leaseMs: 60_000, targetsOf: async () => TARGETS, send, spreadWindowMs: 0, ...extra };
}

describeEachDatabase('delivery engine', (fresh) => {
  it('enqueues one job per subscription and period, whichever instance asks, spread after the due hour', async () => {
    const { store } = await fresh();
    const time = manualClock('2026-11-26T12:00:00Z');
    const sub = await weeklyReport(store, new Date('2026-11-01T00:00:00Z'));
    const results = await Promise.all([1, 2, 3].map(() => enqueueDueReports({ db: store.db, clock: time.clock, spreadWindowMs: 45 * 60_000 })));
    expect(results.reduce((a, b) => a + b, 0)).toBe(1);
    const [job] = await listJobs(store.db, sub.id);
    expect(job).toMatchObject({ idempotencyKey: idempotencyKeyOf(sub.id, '2026-11-23'), periodKey: '2026-11-23', state: 'pending' });
    // Monday 23 November, 08:00 Berlin = 07:00 UTC, plus a stable offset under 45 minutes.
    const offset = Date.parse(job?.runAfter ?? '') - Date.parse('2026-11-23T07:00:00Z');
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThan(45 * 60_000);
  });

  it('does not send an occasion that fell due before the subscription existed', async () => {
    const { store } = await fresh();
    const time = manualClock('2026-11-26T12:00:00Z');
    await weeklyReport(store, new Date('2026-11-25T00:00:00Z'));
    expect(await enqueueDueReports({ db: store.db, clock: time.clock })).toBe(0);
  });

  it('retries a failing delivery with backoff, then dead-letters it with the error', async () => {
    const { store } = await fresh();
    const time = manualClock('2026-11-26T12:00:00Z');
    const sub = await weeklyReport(store, new Date('2026-11-01T00:00:00Z'));
    await enqueueJob(store.db, { idempotencyKey: 'k1', subscriptionId: sub.id, periodKey: 'p', runAfter: time.clock(), now: time.clock() });
    const failing = worker(store, time.clock, 'w1', async () => { throw new Error('receiver said 503'); }, { maxAttempts: 3 });
    expect(await runNextJob(failing)).toMatchObject({ outcome: 'retry' });
    // Not due again until the backoff has passed.
    expect(await runNextJob(failing)).toEqual({ outcome: 'idle' });
    time.advance(30_000);
    expect(await runNextJob(failing)).toMatchObject({ outcome: 'retry' });
    time.advance(59_000);
    expect(await runNextJob(failing)).toEqual({ outcome: 'idle' });
    time.advance(1_000);
    expect(await runNextJob(failing)).toMatchObject({ outcome: 'dead' });
    expect(await getJobByKey(store.db, 'k1')).toMatchObject({ state: 'dead', attempts: 3, lastError: 'receiver said 503' });
    time.advance(3_600_000);
    expect(await runNextJob(failing)).toEqual({ outcome: 'idle' });
  });

  it('two workers: one dies mid-send, the other finishes after the lease; every target gets exactly one send', async () => {
    const { store } = await fresh();
    const time = manualClock('2026-11-26T12:00:00Z');
    const sub = await weeklyReport(store, new Date('2026-11-01T00:00:00Z'));
    await enqueueJob(store.db, { idempotencyKey: 'k1', subscriptionId: sub.id, periodKey: 'p', runAfter: time.clock(), now: time.clock() });
    const arrived: string[] = [];
    let dying!: () => void;
    const died = new Promise<void>((resolve) => (dying = resolve));
    // Worker A delivers the first target, then dies during the second send: that send never arrives, and A never
    // writes anything again (its promise is abandoned, as a killed process's would be).
    const a = worker(store, time.clock, 'A', async (d) => {
      if (d.target.key === 'email:b') {
        dying();
        return new Promise<void>(() => {});
      }
      arrived.push(d.sendId);
    });
    const b = worker(store, time.clock, 'B', async (d) => {
      arrived.push(d.sendId);
    });
    void runNextJob(a);
    await died;
    // While A's lease holds, B finds nothing to do.
    expect(await runNextJob(b)).toEqual({ outcome: 'idle' });
    time.advance(60_000);
    const finished = await runNextJob(b);
    expect(finished).toMatchObject({ outcome: 'sent', delivered: ['email:b', 'webhook:c'] });
    expect(arrived).toEqual(['k1:email:a', 'k1:email:b', 'k1:webhook:c']);
    expect(await getJobByKey(store.db, 'k1')).toMatchObject({ state: 'sent', attempts: 2 });
    time.advance(3_600_000);
    expect(await runNextJob(b)).toEqual({ outcome: 'idle' });
  });

  it('a worker that wakes up after losing its lease records nothing and does not finish the job', async () => {
    const { store } = await fresh();
    const time = manualClock('2026-11-26T12:00:00Z');
    const sub = await weeklyReport(store, new Date('2026-11-01T00:00:00Z'));
    await enqueueJob(store.db, { idempotencyKey: 'k1', subscriptionId: sub.id, periodKey: 'p', runAfter: time.clock(), now: time.clock() });
    const sends: Array<{ by: string; id: string }> = [];
    let wake!: () => void;
    let stalled!: () => void;
    const isStalled = new Promise<void>((resolve) => (stalled = resolve));
    const a = worker(store, time.clock, 'A', async (d) => {
      stalled();
      await new Promise<void>((resolve) => (wake = resolve));
      sends.push({ by: 'A', id: d.sendId });
    });
    const b = worker(store, time.clock, 'B', async (d) => {
      sends.push({ by: 'B', id: d.sendId });
    });
    const aRun = runNextJob(a);
    await isStalled;
    time.advance(60_000);
    expect(await runNextJob(b)).toMatchObject({ outcome: 'sent' });
    wake();
    expect(await aRun).toMatchObject({ outcome: 'lost', delivered: [] });
    // The stalled send repeats B's first one with the same id, so a receiver drops it; nothing else repeats.
    expect(sends.filter((s) => s.by === 'A')).toEqual([{ by: 'A', id: 'k1:email:a' }]);
    expect(sends.filter((s) => s.by === 'B').map((s) => s.id)).toEqual(['k1:email:a', 'k1:email:b', 'k1:webhook:c']);
    expect(await getJobByKey(store.db, 'k1')).toMatchObject({ state: 'sent' });
  });

  it('concurrent claimers never take the same job', async () => {
    const { store } = await fresh();
    const time = manualClock('2026-11-26T12:00:00Z');
    const sub = await weeklyReport(store, new Date('2026-11-01T00:00:00Z'));
    for (let i = 0; i < 12; i += 1) {
      await enqueueJob(store.db, { idempotencyKey: `k${i}`, subscriptionId: sub.id, periodKey: `p${i}`, runAfter: time.clock(), now: time.clock() });
    }
    const claims = await Promise.all(Array.from({ length: 16 }, (_, i) => claimNextJob(store.db, store.dialect, { worker: `w${i % 2}`, leaseMs: 60_000, now: time.clock() })));
    const claimed = claims.filter((c) => c !== undefined).map((c) => c.idempotencyKey);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.length).toBeGreaterThan(0);
  });
});
