import { readFileSync, writeFileSync } from 'node:fs';
import { ELEMENTS_DOC, renderElementReference, replaceReference, type Manifest } from './element-reference.js';

/** `npm run docs`: writes the element reference from custom-elements.json into docs/elements.md. */
const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8')) as Manifest;
const page = readFileSync(ELEMENTS_DOC, 'utf8');
const next = replaceReference(page, renderElementReference(manifest));
writeFileSync(ELEMENTS_DOC, next);
console.log(next === page ? `${ELEMENTS_DOC}: element reference already up to date` : `${ELEMENTS_DOC}: element reference updated`);
