// Brand terms: which search queries name the site itself. Pure helpers; a project's own list (stored) wins, and
// without one the terms are derived from the domain's registrable name.
// (Written to the shared contract so this branch compiles; the insights branch owns this file and replaces it.)

/** Second-level labels under which the registrable name is one label further left (e.g. shop.co.uk). */
const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu']);

/** `www.acme-shop.example` → `["acme shop", "acmeshop", "acme-shop"]`: spaced, joined and as written. */
export function defaultBrandTerms(domain: string): string[] {
  const labels = domain.toLowerCase().replace(/\.$/, '').split('.').filter((l) => l !== '' && l !== 'www');
  if (labels.length === 0) return [];
  const tldAt = labels.length - 1;
  const nameAt = labels.length >= 3 && SECOND_LEVEL.has(labels[tldAt - 1] ?? '') ? tldAt - 2 : Math.max(0, tldAt - 1);
  const name = labels[labels.length === 1 ? 0 : nameAt] ?? '';
  const words = name.split(/[-_]+/).filter((w) => w !== '');
  return [...new Set([words.join(' '), words.join(''), name])].filter((t) => t !== '');
}

/** True when the query contains one of the terms (case and repeated spaces ignored). */
export function isBrandQuery(query: string, terms: readonly string[]): boolean {
  const q = query.toLowerCase().replace(/\s+/g, ' ').trim();
  return terms.some((term) => term !== '' && q.includes(term.toLowerCase()));
}
