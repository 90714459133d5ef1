/**
 * The element reference of docs/elements.md (attributes, events, CSS parts, custom properties),
 * rendered from custom-elements.json so that it cannot drift from the elements' JSDoc. `npm run
 * docs` rewrites it; test/docs/elements-doc.test.ts fails when it is stale.
 */

interface Described {
  name: string;
  description?: string;
  type?: { text?: string };
  default?: string;
}
interface ElementDeclaration {
  tagName?: string;
  customElement?: boolean;
  summary?: string;
  attributes?: Described[];
  events?: Described[];
  cssParts?: Described[];
  cssProperties?: Described[];
}
export interface Manifest {
  modules: { declarations?: ElementDeclaration[] }[];
}

/** The page that holds the element reference. */
export const ELEMENTS_DOC = 'docs/elements.md';

export const REFERENCE_START = '<!-- element-reference:start (npm run docs) -->';
export const REFERENCE_END = '<!-- element-reference:end -->';

/** The order elements appear in: the drop-in first. */
const ORDER = ['satang-checkout', 'satang-card-form', 'satang-qr-payment'];

const cell = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

function table(head: [string, string], rows: Described[], code = true): string {
  if (rows.length === 0) return '';
  const lines = rows.map((row) => `| ${code ? `\`${row.name}\`` : row.name} | ${cell(row.description)} |`);
  return [`| ${head[0]} | ${head[1]} |`, '| --- | --- |', ...lines].join('\n');
}

export function renderElementReference(manifest: Manifest): string {
  const elements = manifest.modules
    .flatMap((module) => module.declarations ?? [])
    .filter((d): d is ElementDeclaration & { tagName: string } => Boolean(d.customElement && d.tagName))
    .sort((a, b) => ORDER.indexOf(a.tagName) - ORDER.indexOf(b.tagName));
  const sections = elements.map((element) => {
    const parts = [
      `### \`<${element.tagName}>\``,
      cell(element.summary),
      table(['Attribute', 'Meaning'], element.attributes ?? []),
      table(['Event', 'When'], element.events ?? []),
      table(['CSS part', 'What it is'], element.cssParts ?? []),
      table(['Custom property', 'What it sets'], element.cssProperties ?? []),
    ];
    return parts.filter(Boolean).join('\n\n');
  });
  return [REFERENCE_START, ...sections, REFERENCE_END].join('\n\n');
}

/** The page with its reference section replaced; throws if the markers are missing. */
export function replaceReference(page: string, reference: string): string {
  const start = page.indexOf(REFERENCE_START);
  const end = page.indexOf(REFERENCE_END);
  if (start < 0 || end < start) throw new Error(`${ELEMENTS_DOC} has no ${REFERENCE_START} … ${REFERENCE_END} section`);
  return page.slice(0, start) + reference + page.slice(end + REFERENCE_END.length);
}
