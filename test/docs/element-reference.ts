/**
 * The element reference of docs/elements.md (attributes, events, CSS parts, custom properties) and
 * the tokens and parts of docs/elements-styling.md, rendered from custom-elements.json so that they
 * cannot drift from the elements' JSDoc. `npm run docs` rewrites them; test/docs/elements-doc.test.ts
 * fails when either is stale.
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

/** The elements of the manifest, the drop-in first. */
function customElements(manifest: Manifest) {
  return manifest.modules
    .flatMap((module) => module.declarations ?? [])
    .filter((d): d is ElementDeclaration & { tagName: string } => Boolean(d.customElement && d.tagName))
    .sort((a, b) => ORDER.indexOf(a.tagName) - ORDER.indexOf(b.tagName));
}

export function renderElementReference(manifest: Manifest): string {
  const elements = customElements(manifest);
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
export function replaceReference(page: string, reference: string, markers = { doc: ELEMENTS_DOC, start: REFERENCE_START, end: REFERENCE_END }): string {
  const start = page.indexOf(markers.start);
  const end = page.indexOf(markers.end);
  if (start < 0 || end < start) throw new Error(`${markers.doc} has no ${markers.start} … ${markers.end} section`);
  return page.slice(0, start) + reference + page.slice(end + markers.end.length);
}

/** The section of `page` between the markers, markers included ('' when they are missing). */
export function referenceSection(page: string, markers: { start: string; end: string }): string {
  const start = page.indexOf(markers.start);
  const end = page.indexOf(markers.end);
  return start < 0 || end < start ? '' : page.slice(start, end + markers.end.length);
}

/** The page for designers, and its generated tables of tokens and parts. */
export const STYLING_DOC = 'docs/elements-styling.md';
export const STYLING = {
  doc: STYLING_DOC,
  start: '<!-- styling-reference:start (npm run docs) -->',
  end: '<!-- styling-reference:end -->',
};

/**
 * Every custom property, once (the design tokens every element shares, then those of one element,
 * naming the elements that read them), and each element's parts, those its nested elements export
 * included.
 */
export function renderStylingReference(manifest: Manifest): string {
  const elements = customElements(manifest);
  const byName = new Map<string, { property: Described; tags: string[] }>();
  for (const element of elements) {
    for (const property of element.cssProperties ?? []) {
      const entry = byName.get(property.name) ?? { property, tags: [] };
      entry.tags.push(element.tagName);
      byName.set(property.name, entry);
    }
  }
  const entries = [...byName.values()];
  const everywhere = entries.filter((e) => e.tags.length === elements.length);
  const some = entries.filter((e) => e.tags.length < elements.length);
  const row = ({ property, tags }: { property: Described; tags: string[] }, note: boolean) =>
    `| \`${property.name}\` | ${property.default ? `\`${cell(property.default)}\`` : ''} | ${cell(property.description)}${note ? ` Read by ${tags.map((t) => `\`<${t}>\``).join(', ')}.` : ''} |`;
  const tokens = [
    '### Design tokens',
    'Set on the element or on any ancestor; every element reads them.',
    ['| Custom property | Default | What it sets |', '| --- | --- | --- |', ...everywhere.map((e) => row(e, false))].join('\n'),
    ...(some.length > 0 ? ['### Other tokens', ['| Custom property | Default | What it sets |', '| --- | --- | --- |', ...some.map((e) => row(e, true))].join('\n')] : []),
  ];
  const parts = elements.map((element) => [`### Parts of \`<${element.tagName}>\``, table(['Part', 'What it is'], element.cssParts ?? [])].join('\n\n'));
  return [STYLING.start, ...tokens, ...parts, STYLING.end].join('\n\n');
}
