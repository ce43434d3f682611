// Per-instance single-flight: concurrent calls for one key share a single in-flight promise.

export interface SingleFlight {
  /**
   * Runs `work` at most once at a time per key; concurrent callers share its outcome (value or error).
   * `peek` lets a caller that waits on another instance's flight pick up that flight's result.
   */
  run<T>(key: string, work: () => Promise<T>, peek?: () => Promise<T | undefined>): Promise<T>;
}

export function createLocalSingleFlight(): SingleFlight & { inFlight(): number } {
  const flights = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      const current = flights.get(key);
      if (current !== undefined) return current as Promise<T>;
      // Removed when settled, so a failure is shared only with callers that were already waiting — never remembered.
      const flight = Promise.resolve()
        .then(work)
        .finally(() => flights.delete(key));
      flights.set(key, flight);
      return flight;
    },
    inFlight: () => flights.size,
  };
}

/** Local dedupe first, so only one caller per instance takes part in the cross-instance flight. */
export function chainSingleFlight(local: SingleFlight, shared: SingleFlight): SingleFlight {
  return {
    run: (key, work, peek) => local.run(key, () => shared.run(key, work, peek)),
  };
}
