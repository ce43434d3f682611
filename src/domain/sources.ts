// The neutral provider words of the public contract and their human display names.

export const SOURCES = ['analytics', 'engine1', 'engine2'] as const;
export type Source = (typeof SOURCES)[number];

export const SEARCH_SOURCES = ['engine1', 'engine2'] as const;
export type SearchSource = (typeof SEARCH_SOURCES)[number];

/** Real provider names appear only in human text. */
export const SOURCE_DISPLAY_NAMES: Record<Source, string> = {
  analytics: 'Google Analytics 4',
  engine1: 'Google Search Console',
  engine2: 'Bing Webmaster Tools',
};

export function isSource(value: string): value is Source {
  return (SOURCES as readonly string[]).includes(value);
}
