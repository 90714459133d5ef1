import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { Plugin, Rolldown } from 'vite';

/**
 * For the build a merchant's bundler takes in (`import 'satang'`, dist/module/): the first render
 * in one file, whatever the bundler.
 *
 * The lazy chunks of an entry (the payment code, the QR element) use lit and some of the entry's
 * own code. Built as ES modules, they would import those from the entry file and from `lit`. A
 * merchant's bundler then sees modules that both the entry and a lazy `import()` reach, and (esbuild
 * always, Rollup and webpack by default) moves them into a shared chunk that the entry imports: the
 * browser gets the entry, and only after reading it asks for the shared file, a second round trip
 * before the first render.
 *
 * So the lazy chunks do not import them. The entry hands them over when it runs:
 *
 *   - the entry chunk ends by setting a frozen object on `globalThis` under
 *     `Symbol.for('satang.kit.<hash>')`, with each of its bindings a lazy chunk uses, and the `lit`
 *     exports they use (the entry imports those from `lit` itself);
 *   - each lazy chunk's `import { a as b } from "../satang.js"` and `import { html } from "lit"`
 *     become `const { "a": b } = globalThis[Symbol.for("satang.kit.<hash>")]["satang.js"]` (and
 *     `…["lit"]`).
 *
 * A lazy chunk is evaluated only after the entry has run (it is loaded with `import()` by the
 * entry's code), so the object is there. A chunk reads each binding once, when it runs, so the
 * build refuses to hand over one that is assigned again after its declaration. The hash is taken
 * over the whole build: two builds never share an object, and two copies of one build share one
 * (the first to run sets it, and it is the one whose elements are defined). Nothing secret is in
 * it: the same functions the page already runs.
 *
 * The entry keeps only its own exports (the internal names the chunks used are removed). The
 * build fails when a lazy chunk still imports the entry or a package the entry imports, or when a
 * chunk's imports take a form this does not rewrite.
 */
export function linkLazyChunksThroughEntry(): Plugin {
  return {
    name: 'satang:link-lazy-chunks-through-entry',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
      const entries = chunks.filter((c) => c.isEntry);
      const [entry] = entries;
      if (!entry || entries.length !== 1) this.error(`expected one entry chunk, found ${entries.map((c) => c.fileName).join(', ') || 'none'}`);
      const key = `satang.kit.${createHash('sha256')
        .update(chunks.map((c) => `${c.fileName}\0${c.code}`).sort().join('\0'))
        .digest('hex')
        .slice(0, 16)}`;
      const kitRef = `globalThis[Symbol.for(${JSON.stringify(key)})]`;

      const entryExports = parseExports(entry.code);
      if (!entryExports) this.error(`${entry.fileName}: expected one \`export { … };\` statement`);
      const entryImports = new Set(parseImports(entry.code).map((i) => i.from));
      const publicNames = new Set(this.getModuleInfo(entry.facadeModuleId ?? '')?.exports ?? []);
      if (publicNames.size === 0) this.error(`${entry.fileName}: the entry module's exports are unknown`);

      /** What the chunks take from each source: the entry file (by its name) or a package. */
      const wanted = new Map<string, Set<string>>();
      for (const chunk of chunks) {
        if (chunk === entry) continue;
        let code = chunk.code;
        for (const statement of parseImports(chunk.code)) {
          const fromEntry = statement.from.startsWith('.') && posix.join(posix.dirname(chunk.fileName), statement.from) === entry.fileName;
          const sharedPackage = !statement.from.startsWith('.') && entryImports.has(statement.from);
          if (!fromEntry && !sharedPackage) continue;
          const source = fromEntry ? entry.fileName : statement.from;
          if (statement.unsupported) this.error(`${chunk.fileName}: \`${statement.text}\` is a form of import this cannot hand over`);
          if (statement.names === undefined) {
            // The entry (and what it imports) has run before any lazy chunk: its side effects are there already.
            code = code.replace(statement.text, '');
            continue;
          }
          const take = wanted.get(source) ?? new Set<string>();
          wanted.set(source, take);
          for (const { imported } of statement.names) take.add(imported);
          const pattern = statement.names.map(({ imported, local }) => (imported === local ? local : `${JSON.stringify(imported)}: ${local}`));
          // A function, so that a `$` in a name is not read as a replacement pattern.
          const handedOver = `const { ${pattern.join(', ')} } = ${kitRef}[${JSON.stringify(source)}];`;
          code = code.replace(statement.text, () => handedOver);
        }
        const left = parseImports(code).filter((i) => entryImports.has(i.from) || (i.from.startsWith('.') && posix.join(posix.dirname(chunk.fileName), i.from) === entry.fileName));
        if (left.length > 0) this.error(`${chunk.fileName}: still imports ${left.map((i) => i.from).join(', ')} statically`);
        chunk.code = code;
      }

      // The entry: imports the package exports it hands over, hands over its own, exports the rest.
      let code = entry.code;
      const added: string[] = [];
      const members: string[] = [];
      for (const [source, names] of wanted) {
        const fields: string[] = [];
        if (source === entry.fileName) {
          for (const name of names) {
            const local = entryExports.bindings.get(name);
            if (!local) this.error(`${entry.fileName}: a chunk imports \`${name}\`, which the entry does not export`);
            // A chunk reads the binding once, when it runs: one that could change later would be stale there.
            if (mayChange(code, local)) this.error(`${entry.fileName}: \`${local}\` may be assigned again, and a lazy chunk would not see it change`);
            fields.push(`${JSON.stringify(name)}: ${local}`);
          }
        } else {
          const locals = [...names].map((name, n) => [name, `__satangKit${added.length}_${n}`] as const);
          for (const [name, local] of locals) fields.push(`${JSON.stringify(name)}: ${local}`);
          added.push(`import { ${locals.map(([name, local]) => `${name} as ${local}`).join(', ')} } from ${JSON.stringify(source)};`);
        }
        members.push(`${JSON.stringify(source)}: Object.freeze({ ${fields.join(', ')} })`);
      }
      const kept = [...entryExports.bindings].filter(([exported]) => publicNames.has(exported));
      const exportStatement = kept.length > 0 ? `export { ${kept.map(([exported, local]) => (exported === local ? local : `${local} as ${exported}`)).join(', ')} };` : '';
      code = code.replace(entryExports.text, () => exportStatement);
      const handOver = `if (!${kitRef}) Object.defineProperty(globalThis, Symbol.for(${JSON.stringify(key)}), { value: Object.freeze({ ${members.join(', ')} }) });\n`;
      entry.code = `${added.join('\n')}${added.length > 0 ? '\n' : ''}${code.replace(/\n*$/, '\n')}${members.length > 0 ? handOver : ''}`;
    },
  };
}

/**
 * Whether a binding of the entry may change after its declaration: declared with `let` or `var`
 * and assigned anywhere but there (`var X = class …`, as bundlers write some classes, stays put).
 */
function mayChange(code: string, local: string): boolean {
  const name = local.replaceAll('$', '\\$');
  if (!new RegExp(`(^|[\\s;,{(])(let|var)\\s+${name}(?![\\w$])`, 'm').test(code)) return false;
  const assignments = code.match(new RegExp(`(?<![\\w$.])${name}\\s*(?:[-+*/%&|^]|\\*\\*|<<|>>>?|&&|\\|\\||\\?\\?)?=(?!=)|(?:\\+\\+|--)${name}(?![\\w$])|(?<![\\w$.])${name}(?:\\+\\+|--)`, 'g')) ?? [];
  const declaredWithValue = new RegExp(`(^|[\\s;,{(])(let|var)\\s+${name}\\s*=(?!=)`, 'm').test(code);
  return assignments.length !== (declaredWithValue ? 1 : 0);
}

interface ImportStatement {
  text: string;
  from: string;
  /** The named bindings; undefined for a side-effect import (`import "x";`). */
  names?: { imported: string; local: string }[];
  /** A default or namespace import: not rewritten. */
  unsupported?: true;
}

/**
 * The static import statements of a chunk as the bundler writes them (unminified ES output): named
 * (`import { a as b, c } from "x";`) or bare (`import "x";`); other forms (default, namespace) are
 * marked, and fail the build where they would have to be rewritten.
 */
function parseImports(code: string): ImportStatement[] {
  const found: ImportStatement[] = [];
  for (const match of code.matchAll(/^import\s*(?:\{([^}]*)\}\s*from\s*)?(["'])([^"']+)\2;?[ \t]*$/gm)) {
    const [text, list, , from = ''] = match;
    if (list === undefined) {
      found.push({ text, from });
      continue;
    }
    const names = list
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [imported = '', local = imported] = part.split(/\s+as\s+/);
        return { imported, local };
      });
    found.push({ text, from, names });
  }
  for (const match of code.matchAll(/^import\s+(?![{"'])[^;]*?from\s*(["'])([^"']+)\1;?[ \t]*$/gm)) {
    found.push({ text: match[0], from: match[2] ?? '', unsupported: true });
  }
  return found;
}

/** The chunk's one `export { local as exported, … };`: exported name → local binding. */
function parseExports(code: string): { text: string; bindings: Map<string, string> } | undefined {
  const all = [...code.matchAll(/^export\s*\{([^}]*)\};?[ \t]*$/gm)];
  const [only] = all;
  if (!only || all.length !== 1) return undefined;
  const [text, list = ''] = only;
  const bindings = new Map<string, string>();
  for (const part of list.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [local = '', exported = local] = part.split(/\s+as\s+/);
    bindings.set(exported, local);
  }
  return { text, bindings };
}
