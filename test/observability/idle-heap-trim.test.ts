import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startIdleHeapTrim } from '../../src/observability/idle-heap-trim.ts';

const PERIOD = 1_000;
const silent = { debug: () => undefined };

describe('idle heap trim', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] }));
  afterEach(() => vi.useRealTimers());

  function start(slack = 64 * 1024 * 1024) {
    const server = new EventEmitter();
    const collect = vi.fn();
    const stop = startIdleHeapTrim({ server, logger: silent, idleMs: PERIOD, collect, slackBytes: () => slack });
    return { server, collect, stop };
  }

  it('collects once after a busy period is followed by a whole idle one', () => {
    const { server, collect, stop } = start();
    vi.advanceTimersByTime(PERIOD);
    expect(collect).toHaveBeenCalledTimes(1); // start-up was the first burst
    vi.advanceTimersByTime(10 * PERIOD);
    expect(collect).toHaveBeenCalledTimes(1); // idle since: nothing grew
    server.emit('request');
    vi.advanceTimersByTime(PERIOD);
    expect(collect).toHaveBeenCalledTimes(1); // the period that had the request
    vi.advanceTimersByTime(PERIOD);
    expect(collect).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(10 * PERIOD);
    expect(collect).toHaveBeenCalledTimes(2); // idle since: nothing new to give back
    stop();
  });

  it('waits while requests keep arriving', () => {
    const { server, collect, stop } = start();
    for (let i = 0; i < 10; i++) {
      server.emit('request');
      vi.advanceTimersByTime(PERIOD);
    }
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(PERIOD);
    expect(collect).toHaveBeenCalledTimes(1);
    stop();
  });

  it('never collects while a request is still being answered, however long it takes', () => {
    const { server, collect, stop } = start();
    vi.advanceTimersByTime(PERIOD);
    expect(collect).toHaveBeenCalledTimes(1); // start-up
    const response = new EventEmitter();
    server.emit('request', {}, response);
    // A heavy insight: seconds with its rows alive and no other request arriving. A collection now would stop it
    // and every request behind it for as long as the whole heap takes to compact.
    vi.advanceTimersByTime(10 * PERIOD);
    expect(collect).toHaveBeenCalledTimes(1);
    response.emit('close');
    vi.advanceTimersByTime(PERIOD);
    expect(collect).toHaveBeenCalledTimes(2);
    stop();
  });

  it('leaves a heap alone whose unused part is small, except once after start', () => {
    const { server, collect, stop } = start(1024 * 1024);
    vi.advanceTimersByTime(PERIOD);
    expect(collect).toHaveBeenCalledTimes(1); // what start-up left counts as used until a full collection
    server.emit('request');
    vi.advanceTimersByTime(5 * PERIOD);
    expect(collect).toHaveBeenCalledTimes(1);
    stop();
  });

  it('stops listening and checking when stopped', () => {
    const { server, collect, stop } = start();
    expect(server.listenerCount('request')).toBe(1);
    stop();
    expect(server.listenerCount('request')).toBe(0);
    server.emit('request');
    vi.advanceTimersByTime(5 * PERIOD);
    expect(collect).not.toHaveBeenCalled();
  });

  it("gives V8's unused heap back with the real collection", () => {
    const server = new EventEmitter();
    const stop = startIdleHeapTrim({ server, logger: silent, idleMs: PERIOD, minSlackBytes: 0 });
    let garbage: { n: number; s: string }[] | undefined = Array.from({ length: 600_000 }, (_, n) => ({ n, s: `row ${n}` }));
    expect(garbage.length).toBe(600_000);
    garbage = undefined;
    // Resident memory, not V8's heap total: an ordinary full collection shrinks the latter but keeps the pages.
    const before = process.memoryUsage.rss();
    server.emit('request');
    vi.advanceTimersByTime(2 * PERIOD);
    expect(process.memoryUsage.rss()).toBeLessThan(before - 16 * 1024 * 1024);
    stop();
  });
});
