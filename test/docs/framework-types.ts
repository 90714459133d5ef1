/**
 * The template types of `satang/vue`, `satang/svelte` and `satang/angular` (src/frameworks/),
 * rendered from custom-elements.json so that they cannot drift from the elements: each tag, its
 * attributes with the values they take, and its events with their classes. `npm run docs` and `npm run build`
 * write them (update-framework-types.ts); test/frameworks/generated-types.test.ts fails when the
 * files in src/ are stale.
 *
 * What an attribute takes is its `type` in the manifest: TypeScript's type of the property, or
 * the `@type {…}` of its TSDoc where the property's own type is wider than what the element
 * accepts (`theme`: `'light' | 'dark' | 'auto'`). Only primitives and literals are written out;
 * anything else is an error naming the attribute, as is an attribute or event without a type.
 */

interface Described {
  name: string;
  description?: string;
  type?: { text?: string; references?: { name: string; module?: string }[] };
}
interface Attribute extends Described {
  fieldName?: string;
}
interface ElementDeclaration {
  kind?: string;
  name?: string;
  tagName?: string;
  customElement?: boolean;
  attributes?: Attribute[];
  events?: Described[];
}
export interface Manifest {
  modules: { path: string; declarations?: ElementDeclaration[] }[];
}

/** The generated modules, by path from the repository's root. */
export const FRAMEWORK_TYPE_FILES = { vue: 'src/frameworks/vue.ts', svelte: 'src/frameworks/svelte.ts', angular: 'src/frameworks/angular.ts' } as const;

/** One attribute as the templates type it. */
interface TypedAttribute {
  /** As written in HTML: `merchant-id`. */
  attribute: string;
  /** The property it sets (`merchantId`), or none for an attribute the element only reads. */
  property: string | undefined;
  type: string;
  description: string;
}
/** One event: its type, the class dispatched and the module declaring that class. */
interface TypedEvent {
  name: string;
  className: string;
  module: string;
  description: string;
}
interface TypedElement {
  tagName: string;
  className: string;
  module: string;
  attributes: TypedAttribute[];
  events: TypedEvent[];
}

/** A type the generated modules can write as it is: primitives, string and number literals, unions of them. */
const PLAIN_TYPE = /^(?:\s*(?:string|number|boolean|undefined|null|'[^'\\]*'|-?\d+(?:\.\d+)?)\s*)(?:\|\s*(?:string|number|boolean|undefined|null|'[^'\\]*'|-?\d+(?:\.\d+)?)\s*)*$/;

/** `dist/elements/events.js` (the manifest names what the package ships) → `../elements/events.js`, from src/frameworks/. */
function importPath(module: string): string {
  if (!module.startsWith('dist/elements/')) throw new Error(`custom-elements.json names ${module}, outside dist/elements/`);
  return `../${module.slice('dist/'.length)}`;
}

function typedElements(manifest: Manifest): TypedElement[] {
  const elements: TypedElement[] = [];
  for (const module of manifest.modules) {
    for (const declaration of module.declarations ?? []) {
      if (!declaration.customElement || !declaration.tagName || !declaration.name) continue;
      const tagName = declaration.tagName;
      const attributes = (declaration.attributes ?? []).map((attribute): TypedAttribute => {
        const type = attribute.type?.text;
        if (!type) throw new Error(`<${tagName}> ${attribute.name}: no type in custom-elements.json; give its property a type, or \`@type {…}\` in its TSDoc`);
        if (!PLAIN_TYPE.test(type)) {
          throw new Error(`<${tagName}> ${attribute.name} is typed \`${type}\` in custom-elements.json; write the values it takes in its TSDoc instead (\`@type {'a' | 'b'}\`)`);
        }
        return { attribute: attribute.name, property: attribute.fieldName, type: type.replace(/\s+/g, ' ').trim(), description: attribute.description ?? '' };
      });
      const events = (declaration.events ?? []).map((event): TypedEvent => {
        const className = event.type?.text;
        const module = event.type?.references?.find((reference) => reference.name === className)?.module;
        if (!className || !module) throw new Error(`<${tagName}> ${event.name}: custom-elements.json names no class (with its module) for this event`);
        return { name: event.name, className, module: importPath(module), description: event.description ?? '' };
      });
      elements.push({ tagName, className: declaration.name, module: importPath(module.path), attributes, events });
    }
  }
  if (elements.length === 0) throw new Error('custom-elements.json declares no custom element');
  return elements.sort((a, b) => a.tagName.localeCompare(b.tagName));
}

/** `satang-amount-changed` → `SatangAmountChanged`. */
const pascal = (name: string) => name.replace(/(?:^|-)([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** `installment-interest` → `installmentInterest`, as Vue names the prop of an attribute. */
const camel = (name: string) => name.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** A TSDoc comment of `text`, indented by `indent`; nothing for no text. */
function doc(text: string, indent: string): string[] {
  const lines = text.replace(/\*\//g, '*\\/').trim().split('\n');
  if (lines.length === 1 && lines[0] === '') return [];
  if (lines.length === 1) return [`${indent}/** ${lines[0] ?? ''} */`];
  return [`${indent}/**`, ...lines.map((line) => `${indent} *${line ? ` ${line}` : ''}`), `${indent} */`];
}

const quote = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`);

/** `import type { A, B } from '…';` for every class the elements and their events need, sorted by module. */
function imports(elements: TypedElement[], head: string[]): string[] {
  const byModule = new Map<string, Set<string>>();
  const add = (module: string, name: string) => byModule.set(module, (byModule.get(module) ?? new Set()).add(name));
  for (const element of elements) {
    add(element.module, element.className);
    for (const event of element.events) add(event.module, event.className);
  }
  const lines = [...byModule].sort(([a], [b]) => a.localeCompare(b)).map(([module, names]) => `import type { ${[...names].sort().join(', ')} } from '${module}';`);
  return [...head, ...lines];
}

const GENERATED = ' * Generated from custom-elements.json by `npm run docs` (test/docs/framework-types.ts): edit the elements, not this file.';

function tagList(elements: TypedElement[]): string[] {
  return [
    '/** The tags typed here, each defined by `satang` (`<satang-qr-payment>` once on the page). */',
    `export const SATANG_TAGS = [${elements.map((e) => `'${e.tagName}'`).join(', ')}] as const;`,
  ];
}

/**
 * The attributes of each element as the element's own properties take them: a name the element
 * does not have, or a value its property would not take, fails to compile here.
 */
const ACCEPTED = [
  '/** `Attributes`, each checked against the property of `Element` it sets. */',
  'type Accepted<Element, Attributes extends { [Name in keyof Attributes]?: Name extends keyof Element ? Element[Name] : never }> = Attributes;',
];

/** `src/frameworks/vue.ts`. */
export function renderVueTypes(manifest: Manifest): string {
  const elements = typedElements(manifest);
  const lines = [
    '/**',
    ' * `satang/vue`: the Satang tags in Vue 3 templates, checked by vue-tsc (Volar). Each tag is a',
    " * global component whose props are the element's attributes, camelCase as Vue passes them",
    ' * (`merchant-id="…"` is `merchantId`), with the values each accepts, and whose events are',
    ' * `onSatang…` props with the class the element dispatches (`@satang-success` hands over a',
    ' * `SatangSuccessEvent`). A wrong value is an error; a misspelt attribute or event is one too with',
    " * vue-tsc's `strictTemplates` (or `checkUnknownProps` and `checkUnknownEvents`), without which",
    ' * Vue lets unknown names through as fallthrough attributes and listeners.',
    ' *',
    " * Properties without an attribute (`<satang-qr-payment>`'s `statusToken` and `image`) are not",
    ' * here: rendered on a server, Vue would write them into an attribute. Set them through a template',
    ' * ref.',
    ' *',
    " * At run time the tags are elements, not Vue components: give Vue's compiler `isSatangElement`",
    ' * as `isCustomElement`.',
    ' *',
    GENERATED,
    ' */',
    ...imports(elements, ["import type { AllowedComponentProps, HTMLAttributes, VNodeProps } from 'vue';"]),
    '',
    ...tagList(elements),
    '',
    "/** For Vue's `compilerOptions.isCustomElement`: true for the Satang tags, which Vue then leaves to the browser. */",
    'export function isSatangElement(tag: string): boolean {',
    '  return (SATANG_TAGS as readonly string[]).includes(tag);',
    '}',
    '',
    ...ACCEPTED,
    '',
    '/** A tag as vue-tsc sees a global component: its props, and the element as its template ref. */',
    'type VueElement<Element, Props> = new () => Element & { $props: Props & Omit<HTMLAttributes, keyof Props> & AllowedComponentProps & VNodeProps };',
  ];
  for (const element of elements) {
    const name = pascal(element.tagName);
    const read = element.attributes.filter((attribute) => attribute.property === undefined);
    lines.push('', `/** The attributes of \`<${element.tagName}>\`, by the property each sets${read.length ? ' (then those it only reads, camelCase)' : ''}. */`, `export type ${name}VueAttributes = Accepted<`, `  ${element.className},`, '  {');
    for (const attribute of element.attributes) if (attribute.property) lines.push(...doc(attribute.description, '    '), `    ${quote(attribute.property)}?: ${attribute.type};`);
    lines.push('  }', read.length ? '> & {' : '>;');
    for (const attribute of read) lines.push(...doc(`${attribute.description}\n\nAn attribute only: write it as \`${attribute.attribute}\`.`, '  '), `  ${quote(camel(attribute.attribute))}?: ${attribute.type};`);
    if (read.length) lines.push('};');
    lines.push('', `/** The events of \`<${element.tagName}>\` as Vue props: \`@${element.events[0]?.name ?? 'satang-…'}\` is \`on${pascal(element.events[0]?.name ?? 'satang')}\`. */`, `export interface ${name}VueEvents {`);
    for (const event of element.events) lines.push(...doc(`\`@${event.name}\`: ${event.description}`, '  '), `  on${pascal(event.name)}?: (event: ${event.className}) => void;`);
    lines.push('}', '', `/** The props of \`<${element.tagName}>\` in a Vue template. */`, `export type ${name}VueProps = ${name}VueAttributes & ${name}VueEvents;`);
  }
  lines.push('', "declare module 'vue' {", '  interface GlobalComponents {');
  for (const element of elements) lines.push(`    '${element.tagName}': VueElement<${element.className}, ${pascal(element.tagName)}VueProps>;`);
  lines.push('  }', '}', '');
  return lines.join('\n');
}

/** `src/frameworks/svelte.ts`. */
export function renderSvelteTypes(manifest: Manifest): string {
  const elements = typedElements(manifest);
  const lines = [
    '/**',
    ' * `satang/svelte`: the Satang tags in Svelte 5 templates, checked by svelte-check. Each tag',
    " * takes the element's attributes, spelled as in HTML (`merchant-id`), with the values each",
    ' * accepts (`amount={178000}`, a number: Svelte sets it as the property), and its events as',
    ' * Svelte 5 event attributes (`onsatang-success`) with the class the element dispatches. A wrong',
    ' * value, a misspelt attribute and a misspelt event are errors.',
    ' *',
    " * Properties without an attribute (`<satang-qr-payment>`'s `statusToken` and `image`) are not",
    ' * here: rendered on a server, Svelte would write them into an attribute. Set them on the element',
    ' * from `bind:this`.',
    ' *',
    GENERATED,
    ' */',
    ...imports(elements, ["import type { HTMLAttributes } from 'svelte/elements';"]),
    '',
    ...tagList(elements),
    '',
    ...ACCEPTED,
  ];
  for (const element of elements) {
    const name = pascal(element.tagName);
    lines.push('', `/** The attributes of \`<${element.tagName}>\`, by the property each sets (Svelte writes them as in HTML). */`, `type ${name}Properties = Accepted<`, `  ${element.className},`, '  {');
    for (const attribute of element.attributes) if (attribute.property) lines.push(`    ${quote(attribute.property)}?: ${attribute.type};`);
    lines.push('  }', '>;', '', `/** \`<${element.tagName}>\` in a Svelte template: its attributes and its events. */`, `export interface ${name}SvelteAttributes {`);
    for (const attribute of element.attributes) {
      lines.push(...doc(attribute.description, '  '), `  ${quote(attribute.attribute)}?: ${attribute.property ? `${name}Properties['${attribute.property}']` : attribute.type};`);
    }
    for (const event of element.events) lines.push(...doc(`\`${event.name}\`: ${event.description}`, '  '), `  'on${event.name}'?: (event: ${event.className}) => void;`);
    lines.push('}', '', `/** Everything \`<${element.tagName}>\` takes in a Svelte template: Svelte's own attributes of an element, and its own. */`);
    lines.push(`export type ${name}SvelteElement = Omit<HTMLAttributes<${element.className}>, keyof ${name}SvelteAttributes> & ${name}SvelteAttributes;`);
  }
  lines.push('', 'declare global {', '  // eslint-disable-next-line @typescript-eslint/no-namespace -- svelteHTML is how Svelte types the elements of a template.', '  namespace svelteHTML {', '    interface IntrinsicElements {');
  for (const element of elements) lines.push(`      '${element.tagName}': ${pascal(element.tagName)}SvelteElement;`);
  lines.push('    }', '  }', '}', '');
  return lines.join('\n');
}

/** `src/frameworks/angular.ts`: the events alone, by type, as `addEventListener` (and so Angular's `$event`) sees them. */
export function renderAngularTypes(manifest: Manifest): string {
  const elements = typedElements(manifest);
  const events = new Map<string, TypedEvent & { tags: string[] }>();
  for (const element of elements) {
    for (const event of element.events) {
      const known = events.get(event.name);
      if (known && known.className !== event.className) {
        throw new Error(`${event.name} is a ${known.className} on <${known.tags.join('>, <')}> but a ${event.className} on <${element.tagName}>: one event type, one class`);
      }
      events.set(event.name, { ...(known ?? event), tags: [...(known?.tags ?? []), element.tagName] });
    }
  }
  const sorted = [...events.values()].sort((a, b) => a.name.localeCompare(b.name));
  const lines = [
    '/**',
    ' * `satang/angular`: the Satang events by type, for Angular templates and any code that listens',
    " * to them. Angular's compiler checks an event binding of an element it does not know",
    ' * (`CUSTOM_ELEMENTS_SCHEMA`) through `addEventListener`, so with these in the DOM\'s',
    ' * `HTMLElementEventMap`, `(satang-success)="paid($event)"` hands `paid` a `SatangSuccessEvent`',
    ' * under `strictTemplates` rather than an `Event`. The events bubble and cross shadow roots, so',
    ' * every element may hear them. Attributes and property bindings of custom elements are not',
    ' * checked by Angular at all.',
    ' *',
    GENERATED,
    ' */',
  ];
  const byModule = new Map<string, Set<string>>();
  for (const event of sorted) byModule.set(event.module, (byModule.get(event.module) ?? new Set()).add(event.className));
  for (const [module, names] of [...byModule].sort(([a], [b]) => a.localeCompare(b))) lines.push(`import type { ${[...names].sort().join(', ')} } from '${module}';`);
  lines.push('', ...tagList(elements), '', 'declare global {', '  interface HTMLElementEventMap {');
  for (const event of sorted) lines.push(...doc(`From \`<${event.tags.join('>`, `<')}>\`: ${event.description}`, '    '), `    '${event.name}': ${event.className};`);
  lines.push('  }', '}', '');
  return lines.join('\n');
}

/** Every generated module, by path. */
export function renderFrameworkTypes(manifest: Manifest): Record<string, string> {
  return {
    [FRAMEWORK_TYPE_FILES.vue]: renderVueTypes(manifest),
    [FRAMEWORK_TYPE_FILES.svelte]: renderSvelteTypes(manifest),
    [FRAMEWORK_TYPE_FILES.angular]: renderAngularTypes(manifest),
  };
}
