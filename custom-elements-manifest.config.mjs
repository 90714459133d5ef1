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

/** src/elements/x.ts becomes dist/elements/x.js, in modules and in cross-module references. */
function shippedPaths() {
  const toDist = (path) => path.replace(/^(\.\/)?src\//, 'dist/').replace(/\.ts$/, '.js');
  const visit = (value) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if ((key === 'path' || key === 'module') && typeof child === 'string') value[key] = toDist(child);
      else visit(child);
    }
  };
  return {
    name: 'satang-shipped-paths',
    packageLinkPhase({ customElementsManifest }) {
      visit(customElementsManifest.modules);
    },
  };
}

export default {
  globs: ['src/elements/**/*.ts'],
  exclude: ['**/*.test.ts', '**/*.spec.ts', '**/*.stories.ts', '**/*.d.ts'],
  litelement: true,
  // package.json names the manifest already ("customElements"); the analyzer leaves it alone.
  packagejson: false,
  plugins: [staticTagName(), eventClassNames(), reactiveStates(), shippedPaths()],
};
