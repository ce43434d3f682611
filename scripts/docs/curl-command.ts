// A documented curl command as a fetch Request: the options the docs use, and nothing else (an option this does
// not know fails loudly, so every documented command stays one a reader can run as written).
import { shellWords, type ShellVariables } from './shell-words.ts';

export interface CurlRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

const QUIET_FLAGS = new Set(['-s', '-S', '-sS', '-f', '-fsS', '-N', '--silent', '--show-error', '--fail', '--compressed', '--no-buffer']);

export function parseCurl(command: string, variables: ShellVariables): CurlRequest {
  const words = shellWords(command, variables);
  if (words[0] !== 'curl') throw new Error(`Not a curl command: ${command}`);
  const request: CurlRequest = { method: '', url: '', headers: {} };
  for (let i = 1; i < words.length; i += 1) {
    const word = words[i]!;
    const value = () => {
      const next = words[++i];
      if (next === undefined) throw new Error(`${word} needs a value in: ${command}`);
      return next;
    };
    if (word === '-X' || word === '--request') request.method = value();
    else if (word === '-H' || word === '--header') addHeader(request, value());
    else if (word === '-d' || word === '--data' || word === '--data-raw' || word === '--data-binary') request.body = value();
    else if (word === '--json') {
      request.body = value();
      request.headers['content-type'] = 'application/json';
      request.headers.accept ??= 'application/json';
    } else if (QUIET_FLAGS.has(word)) continue;
    else if (word.startsWith('-')) throw new Error(`curl option ${word} is not supported by the docs runner: ${command}`);
    else if (request.url) throw new Error(`Two URLs in: ${command}`);
    else request.url = /^https?:\/\//.test(word) ? word : `http://${word}`;
  }
  if (!request.url) throw new Error(`No URL in: ${command}`);
  if (request.body !== undefined && !request.headers['content-type']) request.headers['content-type'] = 'application/x-www-form-urlencoded';
  request.method ||= request.body === undefined ? 'GET' : 'POST';
  return request;
}

function addHeader(request: CurlRequest, header: string): void {
  const colon = header.indexOf(':');
  if (colon < 1) throw new Error(`Malformed header '${header}'`);
  request.headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
}
