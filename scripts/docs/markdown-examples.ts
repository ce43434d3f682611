// Finds the runnable examples of a Markdown document: each curl command in a ```sh block, and the recorded
// output that may follow the block between `<!-- output … -->` and `<!-- /output -->` markers.

export interface RecordedOutput {
  /** Options of the marker, e.g. `keep="projects=1" strings=80`. */
  options: Record<string, string>;
  /** The fenced block's language (`json`, `jsonc`, `csv`, `text`). */
  language: string;
  /** The fenced block's content. */
  text: string;
  /** Character offsets of the whole region between the markers (exclusive of them), for rewriting. */
  start: number;
  end: number;
}

export interface DocExample {
  file: string;
  /** 1-based line of the command. */
  line: number;
  command: string;
  output?: RecordedOutput;
}

const SH_BLOCK = /^```(?:sh|bash|shell|console)\n([\s\S]*?)^```\n/gm;
const OUTPUT = /^<!-- output([^>]*?)-->\n([\s\S]*?)^<!-- \/output -->/gm;

export function findExamples(file: string, markdown: string): DocExample[] {
  const examples: DocExample[] = [];
  for (const block of markdown.matchAll(SH_BLOCK)) {
    const blockStart = block.index + block[0].indexOf('\n') + 1;
    const commands = commandsOf(block[1]!);
    const after = block.index + block[0].length;
    const output = commands.length === 1 ? outputAt(markdown, after) : undefined;
    for (const { text, offset } of commands) {
      const line = markdown.slice(0, blockStart + offset).split('\n').length;
      examples.push({ file, line, command: text, ...(output ? { output } : {}) });
    }
  }
  return examples;
}

/** curl commands of a shell block, joined across backslash continuations; other commands are not examples of the API. */
function commandsOf(block: string): { text: string; offset: number }[] {
  const commands: { text: string; offset: number }[] = [];
  let offset = 0;
  let current: { text: string; offset: number } | undefined;
  for (const line of block.split('\n')) {
    if (current) current.text += `\n${line}`;
    else if (/^\s*curl\s/.test(line)) current = { text: line, offset };
    if (current && !line.endsWith('\\')) {
      commands.push(current);
      current = undefined;
    }
    offset += line.length + 1;
  }
  return commands;
}

function outputAt(markdown: string, position: number): RecordedOutput | undefined {
  OUTPUT.lastIndex = position;
  const match = OUTPUT.exec(markdown);
  if (!match || markdown.slice(position, match.index).trim() !== '') return undefined;
  const inner = match[2]!;
  const fence = /^```(\w*)\n([\s\S]*?)^```\n?$/m.exec(inner);
  const start = match.index + match[0].indexOf('\n') + 1;
  return {
    options: parseOptions(match[1]!),
    language: fence?.[1] ?? '',
    text: fence?.[2] ?? '',
    start,
    end: start + inner.length,
  };
}

function parseOptions(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}
