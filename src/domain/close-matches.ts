// "Did you mean" suggestions: Damerau–Levenshtein distance (optimal string alignment) over candidate names.

/** Edit distance counting insertions, deletions, substitutions and adjacent transpositions. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  const cols = b.length + 1;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: cols }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (prevPrev[j - 2] ?? 0) + 1);
      }
      row.push(best);
    }
    prevPrev = prev;
    prev = row;
  }
  return prev[cols - 1] ?? 0;
}

/**
 * Up to `max` candidates close to `input`, closest first (ties alphabetical). Comparison ignores case;
 * a candidate is close when its distance is at most max(2, a third of the input's length), or when
 * one contains the other (`users` → `newUsers`). A candidate equal but for case is returned alone.
 */
export function closeMatches(input: string, candidates: Iterable<string>, max = 3): string[] {
  const needle = input.toLowerCase();
  const limit = Math.max(2, Math.floor(needle.length / 3));
  const scored: { name: string; score: number }[] = [];
  for (const name of new Set(candidates)) {
    const hay = name.toLowerCase();
    const distance = editDistance(needle, hay);
    if (distance <= limit) scored.push({ name, score: distance });
    else if (needle.length >= 3 && (hay.includes(needle) || needle.includes(hay))) {
      // Containment ranks after every edit-distance match; shorter (closer) names first.
      scored.push({ name, score: limit + 1 + Math.abs(hay.length - needle.length) / 1000 });
    }
  }
  // A name differing only in case is the answer on its own.
  if (scored.some((s) => s.score === 0)) return scored.filter((s) => s.score === 0).slice(0, max).map((s) => s.name);
  scored.sort((x, y) => x.score - y.score || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return scored.slice(0, max).map((s) => s.name);
}

/** ` Did you mean "a", "b" or "c"?` (with leading space), or `''` when nothing is close. */
export function didYouMean(input: string, candidates: Iterable<string>, max = 3): string {
  const matches = closeMatches(input, candidates, max).map((m) => JSON.stringify(m));
  if (matches.length === 0) return '';
  const last = matches.pop() as string;
  return ` Did you mean ${matches.length > 0 ? `${matches.join(', ')} or ${last}` : last}?`;
}
