// The heaviest insight (explain_change of clicks on acme-shop: about 26,000 queries and pages per range) lets other
// requests through while it works. The provider answers are recorded once and replayed at once, so what runs is
// Siteline's own work on them; as soon as that work first gives the event loop back, a cheap request is sent, and
// it must be answered while the insight is still running. Ordered by events, not by time.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sliceYields } from '../../src/limits/event-loop-slice.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

const INSIGHT = '/api/v1/metrics/acme-shop/insights/changes?metric=clicks&period=28days&sp=all';
let rt: SandboxRuntime;
/** Provider answers by request, once recorded: served again without the sandbox computing them. */
const recorded = new Map<string, { status: number; headers: [string, string][]; body: ArrayBuffer }>();
let replaying = false;

beforeAll(async () => {
  rt = await createSandboxRuntime({
    async intercept(request, sandboxFetch) {
      const key = `${request.method} ${request.url} ${await request.clone().text()}`;
      const kept = replaying ? recorded.get(key) : undefined;
      if (kept) return new Response(kept.body.slice(0), { status: kept.status, headers: kept.headers });
      const response = await sandboxFetch(request);
      const body = await response.arrayBuffer();
      recorded.set(key, { status: response.status, headers: [...response.headers], body });
      return new Response(body.slice(0), { status: response.status, headers: response.headers });
    },
  });
  expect((await rt.get(INSIGHT)).status).toBe(200);
  replaying = true;
});
afterAll(() => rt.dispose());

describe('a heavy insight and a cheap request at once', () => {
  it('answers the cheap request while the insight is still working', async () => {
    let firstYield!: () => void;
    const yielded = new Promise<void>((resolve) => (firstYield = resolve));
    let yields = 0;
    const onYield = () => {
      yields++;
      firstYield();
    };
    subscribe(sliceYields.name, onYield);
    try {
      let insightDone = false;
      // force=1: past every cache layer to the (replayed) providers, so all of the work runs again.
      const insight = rt.get(`${INSIGHT}&force=1`).then((answer) => {
        insightDone = true;
        return answer;
      });
      await Promise.race([yielded, insight]);
      expect(insightDone, 'the insight finished without ever giving the event loop back').toBe(false);
      const cheap = await rt.get('/api/v1/projects/list');
      expect(cheap.status).toBe(200);
      expect(insightDone, 'the cheap request waited for the whole insight').toBe(false);
      const yieldsBeforeCheapAnswered = yields;
      const answer = await insight;
      expect(answer.status).toBe(200);
      expect(answer.body.meta.cache).toBe('refresh');
      expect(yields).toBeGreaterThan(yieldsBeforeCheapAnswered);
    } finally {
      unsubscribe(sliceYields.name, onYield);
    }
  });
});
