// Runs the CLI in-process with captured output and an environment of the test's choosing.
import { Readable } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.ts';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json<T = Record<string, unknown>>(): T;
}

export async function runSiteline(args: string[], env: NodeJS.ProcessEnv, stdin?: string): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env,
    ...(stdin === undefined ? {} : { stdin: Readable.from([stdin]) }),
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T };
}
