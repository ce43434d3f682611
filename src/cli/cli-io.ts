// What a CLI command may touch: its output streams and the environment (injected so tests run commands in-process).
export interface CliIO {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
  env: NodeJS.ProcessEnv;
}
