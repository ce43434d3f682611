// A bounded, seeded load on loopback: a few workers send a mix of warm and cold reads to the replicas until
// stopped (or a request cap is reached), and every answer is recorded for the drills' assertions.
/** warm: cached report; cold: a report nobody asked for; store: project metadata; fresh: a key's first use (needs the database). */
export type RouteKind = 'warm' | 'cold' | 'store' | 'fresh';

export interface Outcome {
  /** ms since the load started, when the request was sent. */
  at: number;
  /** ms since the load started, when the answer (or the failure) came. */
  end: number;
  replica: string;
  kind: RouteKind;
  /** HTTP status; 0 when the connection failed (a replica that is gone or draining). */
  status: number;
  code?: string;
  retryAfter: boolean;
  /** Why the connection failed, when it did. */
  network?: string;
}

/** mulberry32: a tiny seeded PRNG so a run can be replayed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WARM = ['/api/v1/metrics/acme-shop/summary?period=28days', '/api/v1/metrics/northwind-journal/summary?period=28days', '/api/v1/metrics/acme-shop/search/summary?period=28days&sp=engine1'];
const STORE = ['/api/v1/projects/list', '/api/v1/projects/acme-shop'];

/** A report nobody asked for yet: a custom range in the past (seeded), so it goes to the provider. */
function coldRoute(random: () => number): string {
  const start = new Date(Date.UTC(2023, 0, 1) + Math.floor(random() * 900) * 86_400_000);
  const end = new Date(start.getTime() + (6 + Math.floor(random() * 50)) * 86_400_000);
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const project = random() < 0.5 ? 'acme-shop' : 'northwind-journal';
  return `/api/v1/metrics/${project}/summary?period=custom_${day(start)}_${day(end)}&compare=none`;
}

export interface Load {
  outcomes: Outcome[];
  /** Stops sending and waits for every request in flight. */
  stop(): Promise<Outcome[]>;
}

export interface LoadOptions {
  replicas: () => { name: string; url: string }[];
  key: string;
  /** Keys never used before, one per `fresh` request (none left: no more fresh requests). */
  freshKeys?: string[];
  /** Share of fresh-key requests (0–1). */
  fresh?: number;
  seed: number;
  workers?: number;
  /** Share of cold requests (0–1). */
  cold?: number;
  /** Hard caps, so a stuck drill cannot turn into an unbounded load. */
  maxRequests?: number;
  maxMs?: number;
  /** Pause between a worker's requests. */
  pauseMs?: number;
}

export function startLoad(options: LoadOptions): Load {
  const random = seeded(options.seed);
  const outcomes: Outcome[] = [];
  const started = Date.now();
  const maxRequests = options.maxRequests ?? 20_000;
  const maxMs = options.maxMs ?? 60_000;
  let stopped = false;
  let sent = 0;

  async function once(): Promise<void> {
    const replicas = options.replicas();
    const replica = replicas[Math.floor(random() * replicas.length)]!;
    const pick = random();
    const freshKey = random() < (options.fresh ?? 0) ? options.freshKeys?.pop() : undefined;
    const kind: RouteKind = freshKey ? 'fresh' : pick < (options.cold ?? 0.3) ? 'cold' : pick < 0.85 ? 'warm' : 'store';
    const path = kind === 'cold' ? coldRoute(random) : kind === 'warm' ? WARM[Math.floor(random() * WARM.length)]! : STORE[Math.floor(random() * STORE.length)]!;
    const at = Date.now() - started;
    try {
      const res = await fetch(new URL(path, replica.url), { headers: { authorization: `Bearer ${freshKey ?? options.key}` }, signal: AbortSignal.timeout(30_000) });
      const text = await res.text();
      let code: string | undefined;
      if (res.status >= 400) code = (JSON.parse(text) as { code?: string }).code;
      outcomes.push({ at, end: Date.now() - started, replica: replica.name, kind, status: res.status, ...(code ? { code } : {}), retryAfter: res.headers.has('retry-after') });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      outcomes.push({ at, end: Date.now() - started, replica: replica.name, kind, status: 0, retryAfter: false, network: cause?.code ?? (error as Error).name });
    }
  }

  async function worker(): Promise<void> {
    while (!stopped && sent < maxRequests && Date.now() - started < maxMs) {
      sent++;
      await once();
      if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  }

  const running = Promise.all(Array.from({ length: options.workers ?? 6 }, worker));
  return {
    outcomes,
    async stop() {
      stopped = true;
      await running;
      return outcomes;
    },
  };
}
