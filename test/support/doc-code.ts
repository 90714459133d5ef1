import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * The code of the docs, as a merchant copies it: the fenced blocks of a page (or of one of its
 * sections), and a way to run a block of server code for real, in this process. The package's
 * own specifiers (`satang/server`, …) are the one thing changed: they name the sources, since the
 * package is not installed in itself.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Where the blocks run from: inside the project, so their other imports (express, hono) resolve; ignored by git and the linter. */
const RUN_DIR = `${root}reports/doc-code/`;

/** What each of the package's specifiers is in the sources. */
export const PACKAGE_SOURCES: Readonly<Record<string, string>> = {
  'satang/server': `${root}src/server/index.ts`,
  'satang/sandbox': `${root}src/sandbox/index.ts`,
  'satang/core': `${root}src/core/index.ts`,
  'satang/card': `${root}src/elements/card.ts`,
};

/**
 * The fenced code blocks of `page` (relative to the project), in order, with their language; only
 * those of the section under `heading` (up to the next heading of its level or above) when given.
 */
export async function codeBlocks(page: string, heading?: string): Promise<{ lang: string; code: string }[]> {
  let text = await readFile(`${root}${page}`, 'utf8');
  if (heading !== undefined) {
    const start = text.indexOf(`\n${heading}\n`);
    if (start < 0) throw new Error(`${page} has no "${heading}" section`);
    const level = /^#+/.exec(heading)?.[0].length ?? 2;
    const rest = text.slice(start + heading.length + 2);
    const next = new RegExp(`^#{1,${level}} `, 'm').exec(rest.replace(/```[\s\S]*?```/g, (block) => block.replace(/#/g, ' ')));
    text = next ? rest.slice(0, next.index) : rest;
  }
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map(([, lang = '', code = '']) => ({ lang, code }));
}

/** The one block of `page` (or its section) that contains every one of `marks`; fails unless exactly one does. */
export async function codeBlockWith(page: string, marks: readonly string[], heading?: string): Promise<string> {
  const found = (await codeBlocks(page, heading)).filter(({ code }) => marks.every((mark) => code.includes(mark)));
  if (found.length !== 1) throw new Error(`${page}${heading ? ` (${heading})` : ''} has ${String(found.length)} code blocks with ${marks.map((mark) => JSON.stringify(mark)).join(' and ')}, not one`);
  return found[0]!.code;
}

/** `code` with the package's specifiers pointing at the sources. */
export function withSourceImports(code: string): string {
  return code.replace(/from '(satang\/[\w/]+)'|import '(satang\/[\w/]+)'/g, (whole, from?: string, bare?: string) => {
    const source = PACKAGE_SOURCES[(from ?? bare)!];
    if (!source) throw new Error(`no source for ${whole}`);
    return from ? `from ${JSON.stringify(source)}` : `import ${JSON.stringify(source)}`;
  });
}

/**
 * Runs `code` as a module of this process (JavaScript as the docs give it), between a `prelude`
 * (what the page defined earlier, e.g. `checkout`) and an `epilogue` (e.g. `export { server };`,
 * so the test can reach what the block made), and answers the module's exports.
 */
export async function runDocModule<T>(code: string, { prelude = '', epilogue = '' }: { prelude?: string; epilogue?: string } = {}): Promise<T> {
  await mkdir(RUN_DIR, { recursive: true });
  const file = `${RUN_DIR}${randomUUID()}.js`;
  await writeFile(file, `${withSourceImports(prelude)}\n${withSourceImports(code)}\n${epilogue}\n`);
  try {
    return (await import(/* @vite-ignore */ file)) as T;
  } finally {
    await rm(file, { force: true });
  }
}
