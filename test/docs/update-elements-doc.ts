import { readFileSync, writeFileSync } from 'node:fs';
import { ELEMENTS_DOC, renderElementReference, renderStylingReference, replaceReference, STYLING, STYLING_DOC, type Manifest } from './element-reference.js';

/**
 * `npm run docs`: writes the element reference from custom-elements.json into docs/elements.md,
 * and the tokens and parts into docs/elements-styling.md.
 */
const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8')) as Manifest;
for (const [doc, update] of [
  [ELEMENTS_DOC, (page: string) => replaceReference(page, renderElementReference(manifest))],
  [STYLING_DOC, (page: string) => replaceReference(page, renderStylingReference(manifest), STYLING)],
] as const) {
  const page = readFileSync(doc, 'utf8');
  const next = update(page);
  writeFileSync(doc, next);
  console.log(next === page ? `${doc}: already up to date` : `${doc}: updated`);
}
