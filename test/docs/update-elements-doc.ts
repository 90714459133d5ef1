import { readFileSync, writeFileSync } from 'node:fs';
import { renderElementReference, replaceReference, type Manifest } from './element-reference.js';

/** `npm run docs`: writes the element reference from custom-elements.json into README.md. */
const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8')) as Manifest;
const readme = readFileSync('README.md', 'utf8');
const next = replaceReference(readme, renderElementReference(manifest));
writeFileSync('README.md', next);
console.log(next === readme ? 'README.md: element reference already up to date' : 'README.md: element reference updated');
