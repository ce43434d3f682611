// Comments state their rule or link a file in docs/: a reader of src/ or test/ has no SPEC or provider-contracts
// document, so a citation of one ("SPEC §4", "provider-contracts §A.6") tells them nothing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SELF = relative(ROOT, import.meta.filename);

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (name.endsWith('.ts')) yield path;
  }
}

describe('references outside the repository', () => {
  it('no file in src/ or test/ cites SPEC § or provider-contracts §', () => {
    const citations: string[] = [];
    for (const dir of ['src', 'test']) {
      for (const path of sourceFiles(join(ROOT, dir))) {
        if (relative(ROOT, path) === SELF) continue;
        readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
          if (/\bSPEC\b|provider-contracts/.test(line) && !/_UNSPECIFIED|\\bSPEC\\b/.test(line)) citations.push(`${relative(ROOT, path)}:${i + 1}: ${line.trim()}`);
        });
      }
    }
    expect(citations).toEqual([]);
  });
});
