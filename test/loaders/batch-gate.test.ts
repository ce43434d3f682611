// The batch gate: a property's batchRunReports leaves after the field-list reads that lead to more of its
// reports, never waits on another property, and a cache lookup that never answers cannot hold it for long.
import { describe, expect, it } from 'vitest';
import { createBatchGate } from '../../src/loaders/batch-gate.ts';

const batchOf = (gate: ReturnType<typeof createBatchGate>, sourceId: string, order: string[]) =>
  new Promise<void>((resolve) =>
    gate.whenReady(sourceId, () => {
      order.push(`batch ${sourceId}`);
      resolve();
    }),
  );

describe('batch gate', () => {
  it('holds a batch until the property’s field list has been read', async () => {
    const gate = createBatchGate();
    const order: string[] = [];
    const listed = gate.startListing('p');
    const batch = batchOf(gate, 'p', order);
    // A batch queued after p's, for a property with nothing under way, leaves once its window has passed — p's
    // window has passed too, and p's batch is still held.
    await batchOf(gate, 'q', order);
    order.push('listed');
    listed();
    await batch;
    expect(order).toEqual(['batch q', 'listed', 'batch p']);
  });

  it('does not hold one property’s batch for another’s work', async () => {
    const gate = createBatchGate();
    const order: string[] = [];
    const otherListed = gate.startListing('q');
    gate.startLookup('q');
    await batchOf(gate, 'p', order);
    expect(order).toEqual(['batch p']);
    otherListed();
  });

  it('lets a batch leave although a cache lookup never answers (it may be waiting on another request’s batch)', async () => {
    const gate = createBatchGate();
    const order: string[] = [];
    gate.startLookup('p');
    await batchOf(gate, 'p', order);
    expect(order).toEqual(['batch p']);
  });
});
