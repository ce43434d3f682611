// The process guard: a stray error is logged and counted and the process keeps serving; only a corrupt in-process
// state drains and exits.
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/observability/metrics.ts';
import { CorruptStateError, installProcessGuard } from '../../src/observability/process-guard.ts';

function guarded() {
  const target = new EventEmitter();
  const logged: string[] = [];
  const exits: number[] = [];
  const metrics = createMetrics({ defaultMetrics: false });
  const logger = { error: (_: object, message: string) => logged.push(`error: ${message}`), fatal: (_: object, message: string) => logged.push(`fatal: ${message}`) };
  const uninstall = installProcessGuard({ logger: logger as never, onEscape: metrics.recordUnhandled, drainAndExit: (code) => exits.push(code), target: target as never });
  return { target, logged, exits, metrics, uninstall };
}

describe('installProcessGuard', () => {
  it('logs and counts an uncaught exception and an unhandled rejection without exiting', async () => {
    const { target, logged, exits, metrics } = guarded();
    target.emit('uncaughtException', new Error('Connection terminated unexpectedly'));
    target.emit('unhandledRejection', new Error('AbortError'));
    expect(exits).toEqual([]);
    expect(logged).toHaveLength(2);
    const text = await metrics.render();
    expect(text).toContain('siteline_unhandled_errors_total{kind="exception"} 1');
    expect(text).toContain('siteline_unhandled_errors_total{kind="rejection"} 1');
  });

  it('drains and exits once when in-process state is corrupt', () => {
    const { target, logged, exits } = guarded();
    target.emit('uncaughtException', new CorruptStateError('semaphore count below zero'));
    target.emit('uncaughtException', new CorruptStateError('again'));
    expect(exits).toEqual([70]);
    expect(logged[0]).toMatch(/^fatal:/);
  });

  it('uninstalls its listeners', () => {
    const { target, uninstall } = guarded();
    uninstall();
    expect(target.listenerCount('uncaughtException')).toBe(0);
    expect(target.listenerCount('unhandledRejection')).toBe(0);
  });

  it('keeps a real process alive after an error event nobody listens to', () => {
    const script = `
      import { EventEmitter } from 'node:events';
      import { installProcessGuard } from './src/observability/process-guard.ts';
      installProcessGuard({ logger: { error: () => process.stdout.write('caught;'), fatal: () => {} }, drainAndExit: () => process.exit(9) });
      setTimeout(() => new EventEmitter().emit('error', new Error('Connection terminated unexpectedly')), 0);
      setTimeout(() => Promise.reject(new Error('nobody awaits this')), 0);
      setTimeout(() => process.stdout.write('still alive'), 50);`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), encoding: 'utf8' });
    expect(child.status).toBe(0);
    expect(child.stdout).toBe('caught;caught;still alive');
  });
});
