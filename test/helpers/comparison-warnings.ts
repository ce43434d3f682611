// What the comparison tests read from an answer: its comparison_unavailable warnings, and days counted back from
// today (the sandbox's histories follow the real clock, so periods near their edges are written relative to it).
export type Warning = { code: string; message: string };

export function unavailable(body: { meta: { warnings: Warning[] } }): Warning[] {
  return body.meta.warnings.filter((w) => w.code === 'comparison_unavailable');
}

/** The UTC date n days before now, `YYYY-MM-DD`. */
export function daysAgo(n: number): string {
  return new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
}
