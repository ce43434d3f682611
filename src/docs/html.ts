// The small Markdown subset the API descriptions use: "## " headings, paragraphs, "- " lists
// and `code` spans. Everything is escaped first (with the pages' one escaping helper), so descriptions can never
// inject markup.
import { escapeHtml } from '../account/html.ts';

/** Inline text: escaped, with `code` spans. */
export function inlineMarkdown(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** Block text; `##` headings become <hN> at `headingLevel`, with ids prefixed by `idPrefix`. */
export function renderMarkdown(text: string, options: { headingLevel?: number; idPrefix?: string } = {}): string {
  const level = options.headingLevel ?? 3;
  const out: string[] = [];
  for (const block of text.split(/\n{2,}/)) {
    const lines = block.split('\n').filter((line) => line.trim() !== '');
    const paragraph: string[] = [];
    const flush = () => {
      if (paragraph.length) out.push(`<p>${paragraph.map(inlineMarkdown).join(' ')}</p>`);
      paragraph.length = 0;
    };
    let list: string[] = [];
    const flushList = () => {
      if (list.length) out.push(`<ul>${list.map((item) => `<li>${inlineMarkdown(item)}</li>`).join('')}</ul>`);
      list = [];
    };
    for (const line of lines) {
      const heading = /^##\s+(.*)$/.exec(line);
      if (heading) {
        flush();
        flushList();
        const title = heading[1]!;
        out.push(`<h${level} id="${escapeHtml(`${options.idPrefix ?? ''}${slug(title)}`)}">${inlineMarkdown(title)}</h${level}>`);
      } else if (line.startsWith('- ')) {
        flush();
        list.push(line.slice(2));
      } else {
        flushList();
        paragraph.push(line);
      }
    }
    flush();
    flushList();
  }
  return out.join('\n');
}

export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
