// Brand terms: which search queries name the site itself. Brand and non-brand traffic behave differently (brand
// queries rank first and click well whatever the content does), so search insights can be split by them.

/** Two-label public suffixes common enough to matter when finding a domain's registrable name. */
const TWO_LABEL_SUFFIXES = new Set(['co.uk', 'org.uk', 'ac.uk', 'com.au', 'net.au', 'co.nz', 'co.jp', 'com.br', 'co.za', 'com.mx', 'co.in']);

/**
 * The spellings of the domain's registrable name a searcher types: `www.acme-shop.example` →
 * `["acme shop", "acmeshop", "acme-shop"]`; a name without separators gives one term.
 */
export function defaultBrandTerms(domain: string): string[] {
  const host = domain.trim().toLowerCase().replace(/^[a-z]+:\/\//, '').replace(/^sc-domain:/, '').split(/[/:]/)[0] ?? '';
  const labels = host.split('.').filter((l) => l !== '');
  if (labels.length === 0) return [];
  const suffixLabels = labels.length >= 3 && TWO_LABEL_SUFFIXES.has(labels.slice(-2).join('.')) ? 2 : 1;
  const name = labels.length > suffixLabels ? labels[labels.length - suffixLabels - 1]! : labels[0]!;
  const words = name.split(/[-_]+/).filter((w) => w !== '');
  if (words.length <= 1) return [words[0] ?? name];
  return [...new Set([words.join(' '), words.join(''), name])];
}

/** Lower case, separators as spaces, single spaces. */
function normalise(text: string): string {
  return text.toLowerCase().replace(/[-_.]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * A query is a brand query when it contains any term, compared without case, separators or spaces
 * ("Acme-Shop login", "acmeshop" and "acme shop prices" all contain "acme shop").
 */
export function isBrandQuery(query: string, terms: readonly string[]): boolean {
  return brandMatcher(terms)(query);
}

/** `isBrandQuery` with the terms prepared once, for the tens of thousands of queries of one answer. */
export function brandMatcher(terms: readonly string[]): (query: string) => boolean {
  const compactTerms = terms.map(compact).filter((term) => term !== '');
  if (compactTerms.length === 0) return () => false;
  return (query) => {
    const compactQuery = compact(query);
    return compactTerms.some((term) => compactQuery.includes(term));
  };
}

function compact(text: string): string {
  return normalise(text).replace(/ /g, '');
}
