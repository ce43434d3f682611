// `npm start`: load settings → build the runtime → serve; with nothing configured this is the embedded default
// (SQLite under ./data, in-process cache, the provider sandbox, a demo account, projects and API key).
import { flushCompileCache } from 'node:module';
import { runService } from './run-service.ts';

const code = await runService(process.env, process.stdout, process.stderr);
if (code !== undefined) process.exit(code);
// With Node's compile cache on (NODE_COMPILE_CACHE, as `npm start` sets it), what start-up stripped and compiled
// goes to disk now rather than at exit, which a SIGKILL would skip; the next start then never loads the type
// stripper. Without it this does nothing.
flushCompileCache();
