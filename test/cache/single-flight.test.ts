import { describe, expect, it } from 'vitest';
import { chainSingleFlight, createLocalSingleFlight, type SingleFlight } from '../../src/cache/single-flight.ts';
import { deferred } from './redis-helpers.ts';

describe('local single-flight', () => {
  it('runs concurrent calls for one key once and shares the value', async () => {
    const flights = createLocalSingleFlight();
    const gate = deferred<string>();
    let runs = 0;
    const work = () => {
      runs += 1;
      return gate.promise;
    };
    const calls = Array.from({ length: 10 }, () => flights.run('k', work));
    gate.resolve('v');
    expect(await Promise.all(calls)).toEqual(Array(10).fill('v'));
    expect(runs).toBe(1);
    expect(flights.inFlight()).toBe(0);
  });

  it('keeps different keys apart', async () => {
    const flights = createLocalSingleFlight();
    const [a, b] = await Promise.all([flights.run('a', async () => 'A'), flights.run('b', async () => 'B')]);
    expect([a, b]).toEqual(['A', 'B']);
  });

  it('shares a failure with the callers already waiting, then forgets it', async () => {
    const flights = createLocalSingleFlight();
    let runs = 0;
    const failing = async () => {
      runs += 1;
      throw new Error('upstream down');
    };
    const results = await Promise.allSettled([flights.run('k', failing), flights.run('k', failing)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(runs).toBe(1);
    expect(await flights.run('k', async () => 'ok')).toBe('ok');
  });
});

describe('chained single-flight', () => {
  it('lets one caller per instance into the shared flight and passes the peek on', async () => {
    const seen: { key: string; peek: unknown }[] = [];
    const sharedFlights = createLocalSingleFlight();
    const shared: SingleFlight = {
      run(key, work, peek) {
        seen.push({ key, peek });
        return sharedFlights.run(key, work);
      },
    };
    const chained = chainSingleFlight(createLocalSingleFlight(), shared);
    const gate = deferred<string>();
    let runs = 0;
    const peek = async () => undefined;
    const calls = [1, 2, 3].map(() =>
      chained.run('k', () => {
        runs += 1;
        return gate.promise;
      }, peek),
    );
    gate.resolve('v');
    expect(await Promise.all(calls)).toEqual(['v', 'v', 'v']);
    expect(runs).toBe(1);
    expect(seen).toEqual([{ key: 'k', peek }]);
  });
});
