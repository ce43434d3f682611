#!/usr/bin/env node
// Plain JavaScript on purpose: it must run on any Node, before a `.ts` file is loaded, so that an old Node gets a
// sentence saying what to do instead of ERR_UNKNOWN_FILE_EXTENSION. Imported by bin/siteline.mjs and run by the
// npm scripts' pre-hooks (prestart, pretest, …).
import { fileURLToPath } from 'node:url';

/** Why this Node cannot run Siteline (it needs type stripping without flags: 22.18+, 23.6+ or 24+), or undefined. */
export function nodeVersionProblem(version) {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const supported = major >= 24 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
  if (supported) return undefined;
  return `Siteline needs Node 22.18+ or 24; you have v${version.replace(/^v/, '')} — run \`source .ci/setup-node\` (in a checkout) or install Node 24 from https://nodejs.org.`;
}

/** Exits with status 1 and the reason on stderr when this Node is too old. */
export function requireSupportedNode() {
  const problem = nodeVersionProblem(process.versions.node);
  if (problem === undefined) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) requireSupportedNode();
