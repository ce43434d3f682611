// `siteline <command> ...`: dispatches to one module per command under ./commands; each module owns its flags.
import { runCli } from './run-cli.ts';

process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
