#!/usr/bin/env node
// The `siteline` command: Node runs the TypeScript sources directly (type stripping), so the bin checks the Node
// version (an old one cannot even load a `.ts` file) and forwards.
import { requireSupportedNode } from './require-node.mjs';

requireSupportedNode();
await import('../src/cli/main.ts');
