// Reads a V8 `.cpuprofile` (node --cpu-prof) and splits the CPU time of a time window into where it went per
// request: each sample is charged to the category of its innermost frame that has one (a native or anonymous frame
// or a Node-internal frame outside HTTP is charged to the caller that has one), so a SHA-256 computed for auth counts
// as auth and JSON.stringify as serialisation.
import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileRow {
  category: string;
  share: number;
  usPerRequest: number;
}

/** First match wins: frame URL or function name → category. */
const CATEGORIES: [string, RegExp][] = [
  ['garbage collection', /^\(garbage collector\)/],
  ['idle', /^\((idle|program)\)/],
  ['serialisation (JSON)', /^(stringify|parse|JSONStringify|JSONParse)$/],
  ['auth (API key lookup)', /\/src\/auth\//],
  ['rate limiter', /\/src\/limits\/|rate-limiter-flexible/],
  ['metrics', /\/src\/observability\/|prom-client/],
  ['logging', /\/src\/logging\/|\/pino/],
  ['response cache & REST route', /\/src\/rest\/|\/src\/cache\//],
  ['request id, headers, errors (src/http)', /\/src\/http\/|\/src\/app\.ts/],
  ['GraphQL / operations', /\/src\/(graphql|operations|loaders|reports)\/|graphql/],
  ['MCP', /\/src\/mcp\/|@modelcontextprotocol/],
  ['other Siteline code', /\/src\//],
  ['routing & h3 event (h3, rou3)', /node_modules\/(h3|rou3)\//],
  ['Request/Response adapter (srvx)', /node_modules\/srvx\//],
  ['HTTP parsing & socket I/O (Node)', /node:(_http|http|net|stream|internal\/streams|internal\/http|_stream)|HTTPParser|writev|Socket/],
];

/** Node's own JavaScript outside HTTP (crypto, timers, promises) is charged to whoever called it. */
const INHERITS = /^node:/;

function categoryOf(frame: ProfileNode['callFrame']): string | undefined {
  for (const [name, pattern] of CATEGORIES) if (pattern.test(frame.url) || pattern.test(frame.functionName)) return name;
  return frame.url === '' || INHERITS.test(frame.url) ? undefined : 'other';
}

/** A measured window in process.hrtime µs (CLOCK_MONOTONIC, the clock of profile sample times in every process). */
export interface ProfileWindow {
  from: number;
  to: number;
}

/** CPU time inside `windows`, by category, as a share and as µs per request (`requests` answered in them). */
export async function summariseProfile(file: string, windows: readonly ProfileWindow[], requests: number): Promise<ProfileRow[]> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const resolved = new Map<number, string>();
  const resolve = (id: number): string => {
    const known = resolved.get(id);
    if (known !== undefined) return known;
    const own = categoryOf(byId.get(id)!.callFrame);
    const up = parent.get(id);
    const category = own ?? (up === undefined ? 'other' : resolve(up));
    resolved.set(id, category);
    return category;
  };
  const totals = new Map<string, number>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (!windows.some((w) => at >= w.from && at < w.to)) continue;
    const category = resolve(profile.samples[i]!);
    totals.set(category, (totals.get(category) ?? 0) + delta);
  }
  totals.delete('idle');
  const busy = [...totals.values()].reduce((a, b) => a + b, 0);
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([category, us]) => ({ category, share: us / busy, usPerRequest: us / Math.max(1, requests) }));
}
