/**
 * custom-elements.json: the elements' tags, attributes, properties, events, slots, CSS parts and
 * custom properties, for editors and documentation tools (`npm run manifest`).
 *
 * Module paths in the manifest point at what the package ships (dist/elements/*.js, with their
 * .d.ts next to them), not at the TypeScript sources.
 */

/** A class with `static tagName = 'satang-…'` is the element defined under that name. */
function staticTagName() {
  return {
    name: 'satang-static-tag-name',
    analyzePhase({ ts, node, moduleDoc }) {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      const member = node.members.find(
        (m) =>
          ts.isPropertyDeclaration(m) &&
          m.name?.getText() === 'tagName' &&
          m.modifiers?.some((mod) => mod.kind === ts.SyntaxKind.StaticKeyword) &&
          m.initializer &&
          ts.isStringLiteralLike(m.initializer),
      );
      if (!member) return;
      const declaration = moduleDoc.declarations?.find((d) => d.kind === 'class' && d.name === node.name.getText());
      if (!declaration) return;
      declaration.tagName ??= member.initializer.text;
      declaration.customElement = true;
    },
  };
}

/**
 * Events dispatched as `new SatangChangeEvent(…)` are named after the string their class passes to
 * `super('satang-change', …)`; the analyzer alone takes the constructor's first argument for the
 * name. Each element's events are then merged by name (description from the JSDoc `@event`, type
 * from the dispatch).
 */
function eventClassNames() {
  const names = new Map();
  return {
    name: 'satang-event-class-names',
    analyzePhase({ ts, node }) {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      const extendsEvent = node.heritageClauses?.some((h) => h.types.some((t) => /Event$/.test(t.expression.getText())));
      if (!extendsEvent) return;
      const visit = (child) => {
        if (ts.isCallExpression(child) && child.expression.kind === ts.SyntaxKind.SuperKeyword) {
          const [first] = child.arguments;
          if (first && ts.isStringLiteralLike(first)) names.set(node.name.getText(), first.text);
          return;
        }
        ts.forEachChild(child, visit);
      };
      node.members.filter(ts.isConstructorDeclaration).forEach(visit);
    },
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules ?? []) {
        for (const declaration of mod.declarations ?? []) {
          if (!declaration.events) continue;
          const byName = new Map();
          for (const event of declaration.events) {
            const name = names.get(event.type?.text) ?? event.name;
            if (!name) continue;
            const previous = byName.get(name) ?? {};
            byName.set(name, { ...previous, ...event, name, description: event.description ?? previous.description });
          }
          declaration.events = [...byName.values()];
        }
      }
    },
  };
}

/**
 * Internal reactive state declared in `static properties` as `{ state: true }` is no attribute and
 * no public property: the analyzer alone lists it as both. It is dropped from `attributes`, and its
 * field loses the `attribute` the analyzer gave it.
 */
function reactiveStates() {
  const statesByClass = new Map();
  return {
    name: 'satang-reactive-states',
    analyzePhase({ ts, node }) {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      const properties = node.members.find(
        (m) => ts.isPropertyDeclaration(m) && m.name?.getText() === 'properties' && m.initializer && ts.isObjectLiteralExpression(m.initializer),
      );
      if (!properties) return;
      const states = new Set();
      for (const entry of properties.initializer.properties) {
        if (!ts.isPropertyAssignment(entry) || !ts.isObjectLiteralExpression(entry.initializer)) continue;
        const isState = entry.initializer.properties.some(
          (option) => ts.isPropertyAssignment(option) && option.name.getText() === 'state' && option.initializer.kind === ts.SyntaxKind.TrueKeyword,
        );
        if (isState) states.add(entry.name.getText());
      }
      statesByClass.set(node.name.getText(), states);
    },
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules ?? []) {
        for (const declaration of mod.declarations ?? []) {
          const states = statesByClass.get(declaration.name);
          if (!states) continue;
          declaration.attributes = declaration.attributes?.filter((a) => !states.has(a.fieldName));
          for (const member of declaration.members ?? []) if (states.has(member.name)) delete member.attribute;
        }
      }
    },
  };
}

/**
 * `customElements.define(X.tagName, X)` registers X under the tag its class names, and a loop
 * `for (const element of [A, B]) customElements.define(element.tagName, element)` registers each of
 * A and B. The analyzer alone records one definition per call, without the tag (it cannot read
 * `X.tagName`) and, for the loop, for the loop's variable. Each becomes one definition per class,
 * under its tag, pointing at the module that declares the class.
 */
function elementDefinitions() {
  /** Module path (as the analyzer names it) -> the classes its define calls register. */
  const definedIn = new Map();
  const isDefineCall = (ts, node) =>
    ts.isCallExpression(node) && node.expression.getText().replace(/\s+/g, '') === 'customElements.define' && node.arguments.length >= 2;
  /** The classes `element` stands for, when it is the variable of an enclosing `for…of` over an array of classes. */
  const loopClasses = (ts, node, name) => {
    for (let parent = node.parent; parent; parent = parent.parent) {
      if (!ts.isForOfStatement(parent) || !ts.isVariableDeclarationList(parent.initializer)) continue;
      const [variable] = parent.initializer.declarations;
      if (variable?.name.getText() !== name || !ts.isArrayLiteralExpression(parent.expression)) continue;
      return parent.expression.elements.filter(ts.isIdentifier).map((e) => e.getText());
    }
    return [name];
  };
  return {
    name: 'satang-element-definitions',
    analyzePhase({ ts, node, moduleDoc }) {
      if (!isDefineCall(ts, node)) return;
      const target = node.arguments[1];
      if (!ts.isIdentifier(target)) return;
      const classes = definedIn.get(moduleDoc.path) ?? [];
      for (const name of loopClasses(ts, node, target.getText())) if (!classes.includes(name)) classes.push(name);
      definedIn.set(moduleDoc.path, classes);
    },
    packageLinkPhase({ customElementsManifest }) {
      const elements = new Map();
      for (const mod of customElementsManifest.modules ?? []) {
        for (const declaration of mod.declarations ?? []) {
          if (declaration.customElement && declaration.tagName) elements.set(declaration.name, { tagName: declaration.tagName, module: mod.path });
        }
      }
      for (const mod of customElementsManifest.modules ?? []) {
        const classes = definedIn.get(mod.path);
        const others = (mod.exports ?? []).filter((e) => e.kind !== 'custom-element-definition');
        if (!classes) continue;
        const definitions = classes.map((name) => {
          const element = elements.get(name);
          if (!element) throw new Error(`${mod.path}: customElements.define registers ${name}, which is no element with a static tagName`);
          return { kind: 'custom-element-definition', name: element.tagName, declaration: { name, module: element.module } };
        });
        mod.exports = [...others, ...definitions];
      }
    },
  };
}

/**
 * Each event's `type` is the class the element dispatches (`SatangSuccessEvent`), with a reference
 * to the module declaring it; an `@event` tag without a `{Type}` gets the class whose constructor
 * passes that name to `super(…)`. The fields of a Satang event are on the event itself (no
 * `detail`), so that class is its exact type.
 */
function eventTypes() {
  const classOfEvent = new Map();
  return {
    name: 'satang-event-types',
    analyzePhase({ ts, node }) {
      if (!ts.isClassDeclaration(node) || !node.name) return;
      const visit = (child) => {
        if (ts.isCallExpression(child) && child.expression.kind === ts.SyntaxKind.SuperKeyword) {
          const [first] = child.arguments;
          if (first && ts.isStringLiteralLike(first) && /^satang-/.test(first.text)) classOfEvent.set(first.text, node.name.getText());
          return;
        }
        ts.forEachChild(child, visit);
      };
      node.members.filter(ts.isConstructorDeclaration).forEach(visit);
    },
    packageLinkPhase({ customElementsManifest }) {
      const declaredIn = new Map();
      for (const mod of customElementsManifest.modules ?? []) {
        for (const declaration of mod.declarations ?? []) if (declaration.kind === 'class') declaredIn.set(declaration.name, mod.path);
      }
      for (const mod of customElementsManifest.modules ?? []) {
        for (const declaration of mod.declarations ?? []) {
          for (const event of declaration.events ?? []) {
            const name = event.type?.text ?? classOfEvent.get(event.name);
            if (!name) continue;
            const module = declaredIn.get(name);
            event.type = module ? { text: name, references: [{ name, module }] } : { text: name };
          }
        }
      }
    },
  };
}

/**
 * Module paths point at what the package ships: src/elements/x.ts (or the analyzer's
 * `/src/elements/x.js`) becomes dist/elements/x.js, in modules and in cross-module references; a
 * reference relative to its module (`./x.js`, from a re-export) becomes the shipped path too.
 */
function shippedPaths() {
  const toDist = (path) => path.replace(/^(\.?\/)?src\//, 'dist/').replace(/\.ts$/, '.js');
  const resolveFrom = (modulePath, reference) => {
    if (!/^\.\.?\//.test(reference)) return toDist(reference);
    const parts = modulePath.split('/').slice(0, -1);
    for (const segment of reference.split('/')) {
      if (segment === '..') parts.pop();
      else if (segment !== '.') parts.push(segment);
    }
    return toDist(parts.join('/'));
  };
  const visit = (value, modulePath) => {
    if (Array.isArray(value)) return value.forEach((child) => visit(child, modulePath));
    if (!value || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (key === 'module' && typeof child === 'string') value[key] = resolveFrom(modulePath, child);
      else visit(child, modulePath);
    }
  };
  return {
    name: 'satang-shipped-paths',
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules ?? []) {
        visit(mod.declarations, mod.path);
        visit(mod.exports, mod.path);
        mod.path = toDist(mod.path);
      }
    },
  };
}

/** `@cssprop [--name=default] - description`, as TypeScript hands over an unknown tag's text. */
function cssPropertyOf(comment) {
  const match = /^\[?(--[\w-]+)(?:=([^\]]*))?\]?\s+-\s+([\s\S]*)$/.exec(String(comment ?? '').trim());
  if (!match) throw new Error(`@cssprop "${comment}": expected "[--name=default] - description"`);
  const [, name, defaultValue, description] = match;
  return { name, description: description.replace(/\s+/g, ' ').trim(), ...(defaultValue === undefined ? {} : { default: defaultValue.trim() }) };
}

/** The JSDoc tags named `tag` above a variable statement, as text. */
function variableTags(ts, node, tag) {
  if (!ts.isVariableStatement(node)) return [];
  return (node.jsDoc ?? []).flatMap((doc) => (doc.tags ?? []).filter((t) => t.tagName.text === tag)).map((t) => (typeof t.comment === 'string' ? t.comment : ts.getTextOfJSDocComment(t.comment) ?? ''));
}

/**
 * The design tokens every element shares are documented once, as `@cssprop` tags above `tokens`
 * in src/elements/shared-styles.ts, whose rules every element adopts: each element gets them in
 * its `cssProperties`, after its own.
 */
function sharedTokens() {
  const shared = [];
  return {
    name: 'satang-shared-tokens',
    analyzePhase({ ts, node }) {
      shared.push(...variableTags(ts, node, 'cssprop').map(cssPropertyOf));
    },
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules ?? []) {
        for (const declaration of mod.declarations ?? []) {
          if (!declaration.customElement) continue;
          const own = declaration.cssProperties ?? [];
          declaration.cssProperties = [...own, ...shared.filter((token) => !own.some((p) => p.name === token.name))];
        }
      }
    },
  };
}

/**
 * An element that renders another one inside its shadow root exports the inner element's parts
 * under names of its own: `exportparts` is a string constant whose JSDoc says whose parts it maps,
 * `@exportparts <inner-tag> to <outer-tag>`. The outer element gets each exported part, described
 * as the inner element documents it, and the inner element's own custom properties (they reach it
 * through the outer one). A part of the inner element left out of the map, or a name it does not
 * have, stops the analysis: every part of a nested element is styleable from the page.
 */
function exportedParts() {
  const maps = [];
  return {
    name: 'satang-exported-parts',
    analyzePhase({ ts, node }) {
      for (const text of variableTags(ts, node, 'exportparts')) {
        const [inner, outer] = text.trim().split(/\s+to\s+/);
        const value = node.declarationList.declarations[0]?.initializer;
        if (!inner || !outer || !value || !ts.isStringLiteralLike(value)) throw new Error(`@exportparts "${text}": expected "<inner-tag> to <outer-tag>" above a string constant`);
        const pairs = value.text.split(',').map((pair) => pair.split(':').map((name) => name.trim()));
        maps.push({ inner, outer, pairs });
      }
    },
    packageLinkPhase({ customElementsManifest }) {
      const elements = new Map();
      for (const mod of customElementsManifest.modules ?? []) {
        for (const declaration of mod.declarations ?? []) if (declaration.customElement && declaration.tagName) elements.set(declaration.tagName, declaration);
      }
      for (const { inner, outer, pairs } of maps) {
        const from = elements.get(inner);
        const to = elements.get(outer);
        if (!from || !to) throw new Error(`@exportparts ${inner} to ${outer}: no such element`);
        const innerParts = from.cssParts ?? [];
        const missing = innerParts.filter((part) => !pairs.some(([name]) => name === part.name)).map((part) => part.name);
        if (missing.length > 0) throw new Error(`<${outer}> does not export the parts ${missing.join(', ')} of <${inner}>`);
        to.cssParts ??= [];
        for (const [name, exported = name] of pairs) {
          const part = innerParts.find((p) => p.name === name);
          if (!part) throw new Error(`<${outer}> exports a part "${name}" that <${inner}> does not document`);
          if (!to.cssParts.some((p) => p.name === exported)) to.cssParts.push({ name: exported, description: `${(part.description ?? '').replace(/\.$/, '')} (\`${name}\` of \`<${inner}>\`).` });
        }
        const own = to.cssProperties ?? [];
        to.cssProperties = [...own, ...(from.cssProperties ?? []).filter((p) => !own.some((o) => o.name === p.name))];
      }
    },
  };
}

export default {
  globs: ['src/elements/**/*.ts'],
  exclude: ['**/*.test.ts', '**/*.spec.ts', '**/*.stories.ts', '**/*.d.ts'],
  litelement: true,
  // package.json names the manifest already ("customElements"); the analyzer leaves it alone.
  packagejson: false,
  plugins: [staticTagName(), eventClassNames(), reactiveStates(), elementDefinitions(), eventTypes(), exportedParts(), sharedTokens(), shippedPaths()],
};
