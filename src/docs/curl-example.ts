// A copy-pasteable curl command per operation, using $SITELINE_KEY so no secret ever lands in a page or a shell history.
import type { DocsOperation } from './docs-model.ts';

export function curlExample(server: string, operation: DocsOperation): string {
  let path = operation.path;
  const query = new URLSearchParams();
  for (const parameter of operation.parameters) {
    const value = String(parameter.example ?? parameter.default ?? parameter.enum?.[0] ?? parameter.name);
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(value));
    else if (parameter.required || parameter.name === 'period') query.set(parameter.name, value);
  }
  const url = `${server}${path}${query.size ? `?${query}` : ''}`;
  const lines = [`curl -sS -H "Authorization: Bearer $SITELINE_KEY"`];
  if (operation.method !== 'GET') {
    lines[0] = `curl -sS -X ${operation.method} -H "Authorization: Bearer $SITELINE_KEY"`;
    lines.push(`-H 'Content-Type: application/json'`);
    lines.push(`--data ${shellQuote(JSON.stringify(operation.requestExample ?? {}))}`);
  }
  lines.push(shellQuote(url));
  return lines.join(' \\\n  ');
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
