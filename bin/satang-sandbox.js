#!/usr/bin/env node
// Runs the sandbox CLI: from the TypeScript sources in a checkout of the repository (through
// tsx), from the compiled files in an installed package.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const source = fileURLToPath(new URL('../src/sandbox/cli.ts', import.meta.url));
let cli;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(pathToFileURL(source).href);
} else {
  cli = await import('../dist/sandbox/cli.js');
}
await cli.main();
