import { readFileSync, writeFileSync } from 'node:fs';
import { renderFrameworkTypes, type Manifest } from './framework-types.js';

/** `npm run docs` and `npm run build`: writes the template types of satang/vue and satang/svelte from custom-elements.json. */
const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8')) as Manifest;
for (const [path, source] of Object.entries(renderFrameworkTypes(manifest))) {
  let previous = '';
  try {
    previous = readFileSync(path, 'utf8');
  } catch {
    // Written for the first time.
  }
  if (previous !== source) writeFileSync(path, source);
  console.log(previous === source ? `${path}: already up to date` : `${path}: updated`);
}
