// The Markdown a reader gets: the README, the manual in docs/ and the benchmark notes.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export async function docFiles(): Promise<string[]> {
  const manual = (await readdir(join(ROOT, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
  const top = ['README.md', 'SECURITY.md', 'CHANGELOG.md', 'bench/README.md'];
  return [...top, ...manual.sort()];
}

export async function readDoc(file: string): Promise<string> {
  return readFile(join(ROOT, file), 'utf8');
}
