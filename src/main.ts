// `npm start`: load settings → build the runtime → serve; with nothing configured this is the embedded default
// (SQLite under ./data, in-process cache, the provider sandbox, a demo account, projects and API key).
import { runService } from './run-service.ts';

const code = await runService(process.env, process.stdout, process.stderr);
if (code !== undefined) process.exit(code);
