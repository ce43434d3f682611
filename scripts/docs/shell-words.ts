// Splits one documented shell command into words the way sh would for the subset the docs use: single and double
// quotes, backslash escapes and line continuations, and the two ways the docs name the demo key.
export interface ShellVariables {
  /** `$NAME` / `${NAME}` values; a variable not listed here is an error, so the docs only use what a reader has. */
  [name: string]: string;
}

const KEY_FILE_SUBSTITUTION = /\$\(cat data\/demo-api-key\)/g;

/** The words of the command, stopping at the first unquoted `|`, `;`, `&&`, `>` or comment. */
export function shellWords(command: string, variables: ShellVariables): string[] {
  const text = command.replace(/\\\r?\n/g, ' ').replace(KEY_FILE_SUBSTITUTION, '$SITELINE_KEY');
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  const push = (chars: string) => {
    word = (word ?? '') + chars;
  };
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else push(ch);
    } else if (ch === '\\' && i + 1 < text.length && (quote === undefined || '$`"\\'.includes(text[i + 1]!))) {
      push(text[++i]!);
    } else if (ch === '$') {
      const match = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/.exec(text.slice(i));
      if (!match) {
        push(ch);
        continue;
      }
      const name = (match[1] ?? match[2])!;
      if (!(name in variables)) throw new Error(`The command uses $${name}, which the docs do not define: ${command}`);
      push(variables[name]!);
      i += match[0].length - 1;
    } else if (quote === '"') {
      if (ch === '"') quote = undefined;
      else push(ch);
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      push('');
    } else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (ch === '|' || ch === ';' || ch === '>' || (ch === '&' && text[i + 1] === '&') || (ch === '#' && word === undefined)) {
      break;
    } else {
      push(ch);
    }
  }
  if (quote) throw new Error(`Unterminated quote in: ${command}`);
  if (word !== undefined) words.push(word);
  return words;
}
