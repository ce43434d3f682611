// `npm run docs:record [-- docs/graphql.md …]`: runs every documented example that has an output block (of the
// files named, or of every document) against the in-process demo and writes the (trimmed) answers into the
// documents, so the README's tour shows real output.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { docFiles, readDoc, ROOT } from './docs/doc-files.ts';
import { createDocsDemo } from './docs/docs-demo.ts';
import { findExamples } from './docs/markdown-examples.ts';
import { recordExample } from './docs/run-example.ts';

const only = new Set(process.argv.slice(2));
const demo = await createDocsDemo();
try {
  for (const file of (await docFiles()).filter((f) => only.size === 0 || only.has(f))) {
    let markdown = await readDoc(file).catch(() => undefined);
    if (markdown === undefined) continue;
    const examples = findExamples(file, markdown).filter((example) => example.output);
    // Rewrite from the end so earlier offsets stay valid.
    for (const example of examples.reverse()) {
      const { language, text } = await recordExample(demo, example);
      const { start, end } = example.output!;
      markdown = `${markdown.slice(0, start)}\`\`\`${language}\n${text}\`\`\`\n${markdown.slice(end)}`;
    }
    if (examples.length) {
      await writeFile(join(ROOT, file), markdown);
      console.log(`${file}: ${examples.length} output${examples.length > 1 ? 's' : ''} recorded`);
    }
  }
} finally {
  await demo.dispose();
}
