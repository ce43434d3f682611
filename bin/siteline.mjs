#!/usr/bin/env node
// The `siteline` command: Node runs the TypeScript sources directly (type stripping), so the bin only forwards.
await import('../src/cli/main.ts');
