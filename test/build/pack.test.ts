import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright';
import { build as viteBuild, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../bench/sizes.js';
import { CHROMIUM_PATH } from '../support/chromium-path.js';

/**
 * The package as a merchant gets it: `npm run build`, `npm pack`, then the tarball installed in
 * fresh projects, from npm's cache where it can (`--prefer-offline`):
 *
 *   - server-only: the tarball alone, as `npm install satang` does for a merchant's server. It
 *     brings no browser library; satang/server, satang/core, satang/sandbox and the
 *     satang-sandbox bin work.
 *   - with its peers (lit and the other optional peers, and @types/node): every export is
 *     imported in Node, or resolved where it is browser code, and type-checked with
 *     `tsc --strict --moduleResolution nodenext`; each script file loads in Chromium with its
 *     Subresource Integrity hash from sri.json, lazy chunks included.
 *
 * Nothing here is skipped: a step that cannot run fails the test.
 */

const exec = promisify(execFile);
const PACK_TIMEOUT_MS = 300_000;
const STEP_TIMEOUT_MS = 120_000;
const SANDBOX_BANNER_TIMEOUT_MS = 30_000;
const TSC = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');

/** The browser libraries a merchant's server must not get with `npm install satang`. */
const BROWSER_LIBRARIES = ['lit', 'lit-html', 'lit-element', '@lit/reactive-element', '@lit/react', '@types/react', 'react'];

/** What each script file defines when loaded (`satang.js` defines `<satang-qr-payment>` once one is on the page). */
const SCRIPT_ELEMENTS: Record<string, string[]> = {
  'satang.js': ['satang-checkout', 'satang-card-form'],
  'satang-checkout.js': ['satang-checkout', 'satang-card-form'],
  'satang-card.js': ['satang-card-form'],
};

interface PackedFile {
  path: string;
  size: number;
}
interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: PackedFile[];
}
type ExportTarget = string | { types?: string; node?: string; default?: string; import?: string };
interface PackageJson {
  name: string;
  license?: string;
  repository?: { url?: string };
  homepage?: string;
  bugs?: { url?: string };
  exports: Record<string, ExportTarget>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

let work: string;
let packed: Packed;
let packedPaths: Set<string>;
let manifest: PackageJson;
/** The tarball alone. */
let serverOnly: string;
/** The tarball with its peers and @types/node. */
let withPeers: string;

async function npm(args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await exec('npm', args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false' } });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`npm ${args.join(' ')} failed in ${cwd}:\n${stderr ?? ''}\n${stdout ?? ''}`, { cause: error });
  }
}

async function node(args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await exec(process.execPath, args, { cwd, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`node ${args.join(' ')} failed in ${cwd}:\n${stderr ?? ''}\n${stdout ?? ''}`, { cause: error });
  }
}

/** A fresh project (`"type": "module"`) with the tarball installed, and `extra` packages from the cache. */
async function freshProject(name: string, extra: string[]): Promise<string> {
  const dir = join(work, name);
  await mkdir(dir);
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name, version: '0.0.0', private: true, type: 'module' }, null, 2)}\n`);
  await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed.filename), ...extra], dir);
  return dir;
}

/** `name@version` as installed in the repository, so a project gets what the repository tests with. */
async function installedVersion(name: string): Promise<string> {
  const { version } = JSON.parse(await readFile(join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
  return `${name}@${version}`;
}

/** Every package directory in a project's node_modules (`lit`, `@lit/reactive-element`, …), nested ones included. */
async function installedPackages(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (modules: string): Promise<void> => {
    if (!existsSync(modules)) return;
    for (const entry of await readdir(modules, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      if (entry.name.startsWith('@')) {
        for (const scoped of await readdir(join(modules, entry.name), { withFileTypes: true })) {
          if (scoped.isDirectory()) {
            found.push(`${entry.name}/${scoped.name}`);
            await walk(join(modules, entry.name, scoped.name, 'node_modules'));
          }
        }
      } else {
        found.push(entry.name);
        await walk(join(modules, entry.name, 'node_modules'));
      }
    }
  };
  await walk(join(dir, 'node_modules'));
  return found;
}

const targetOf = (target: ExportTarget): string => (typeof target === 'string' ? target : (target.default ?? target.import ?? ''));
const specifierOf = (key: string): string => (key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`);

/**
 * How an export is checked in Node: JSON is imported as JSON; everything else is imported, the
 * elements included, as a server rendering the page (SvelteKit, Nuxt, Astro) imports them with no
 * DOM (the script files, built for the browser, have a `node` condition: the same elements as
 * modules).
 */
function kindOf(target: string): 'json' | 'node' {
  return target.endsWith('.json') ? 'json' : 'node';
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'satang-pack-'));
  manifest = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as PackageJson;
  await npm(['run', 'build'], REPO_ROOT);
  const [result] = JSON.parse(await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], REPO_ROOT)) as [Packed];
  packed = result;
  packedPaths = new Set(packed.files.map((f) => f.path));
  console.log(`npm pack: ${packed.filename}, ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${packed.entryCount} files`);
  serverOnly = await freshProject('server-only', []);
  const peers = await Promise.all([...Object.keys(manifest.peerDependencies ?? {}), '@types/node'].map(installedVersion));
  withPeers = await freshProject('with-peers', peers);
}, PACK_TIMEOUT_MS);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds every file package.json exports, and its types', () => {
    const missing: string[] = [];
    for (const [key, target] of Object.entries(manifest.exports)) {
      const files = typeof target === 'string' ? [target] : Object.values(target);
      for (const file of files) if (!packedPaths.has(normalize(file))) missing.push(`${key}: ${file}`);
      if (kindOf(targetOf(target)) !== 'json') expect(typeof target === 'object' && target.types, `${key} has a types condition`).toBeTruthy();
    }
    for (const [name, file] of Object.entries(manifest.bin ?? {})) if (!packedPaths.has(normalize(file))) missing.push(`bin ${name}: ${file}`);
    expect(missing).toEqual([]);
  });

  it('holds every file and export the README and docs/ tell people to load', async () => {
    const pages = ['README.md', ...(await readdir(join(REPO_ROOT, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
    const readme = (await Promise.all(pages.map((page) => readFile(join(REPO_ROOT, page), 'utf8')))).join('\n');
    const specifiers = new Set([...readme.matchAll(/['"`](satang(?:\/[\w.-]+)*)['"`]/g)].map((m) => m[1]!));
    const exported = new Set(Object.keys(manifest.exports).map(specifierOf));
    expect([...specifiers].filter((s) => !exported.has(s)), 'import paths in the docs that are not exports').toEqual([]);
    const files = new Set([...readme.matchAll(/\b(?:node_modules\/satang\/)?(dist\/browser\/[\w./-]+\.(?:json|js))\b/g)].map((m) => m[1]!));
    for (const [, name] of readme.matchAll(/<script[^>]*\bsrc="[^"]*\/(satang[\w-]*\.js)"/g)) files.add(`dist/browser/${name!}`);
    expect(files.size, 'the docs name the script files').toBeGreaterThan(0);
    expect([...files].filter((f) => !packedPaths.has(f)), 'files in the docs not in the package').toEqual([]);
    const targets = new Set(Object.values(manifest.exports).map((t) => normalize(targetOf(t))));
    expect([...files].filter((f) => !targets.has(f)), 'files in the docs without an export').toEqual([]);
  });

  it('ships the script files with their lazy chunks, and no copy of one file under another name', async () => {
    const chunks = [...packedPaths].filter((p) => /^dist\/browser\/chunks\/.+\.js$/.test(p));
    const stems = new Set(chunks.map((p) => p.replace(/^dist\/browser\/chunks\/(.+)-[\w-]{8}\.js$/, '$1')));
    for (const stem of ['qrcode', 'qr-reader', 'pay-path', 'qr-payment', 'card-form-extras']) expect([...stems], `a ${stem} chunk`).toContain(stem);
    const byHash = new Map<string, string>();
    for (const path of [...packedPaths].filter((p) => p.startsWith('dist/browser/') && p.endsWith('.js'))) {
      const hash = createHash('sha256').update(await readFile(join(withPeers, 'node_modules/satang', path))).digest('hex');
      expect(byHash.get(hash), `${path} is a copy`).toBeUndefined();
      byHash.set(hash, path);
    }
  });

  it('ships no source map without its sources, and no file pointing at a map it lacks', async () => {
    const root = join(withPeers, 'node_modules/satang');
    for (const path of [...packedPaths].filter((p) => p.endsWith('.map'))) {
      const map = JSON.parse(await readFile(join(root, path), 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[]; sourceRoot?: string };
      map.sources.forEach((source, i) => {
        const shipped = packedPaths.has(normalize(join(dirname(path), map.sourceRoot ?? '', source)));
        expect(typeof map.sourcesContent?.[i] === 'string' || shipped, `${path}: ${source} is neither inside the map nor shipped`).toBe(true);
      });
    }
    for (const path of [...packedPaths].filter((p) => /\.(js|mjs|cjs|d\.ts)$/.test(p))) {
      const url = /\/[/*][#@] sourceMappingURL=(\S+?)(?:\s*\*\/)?\s*$/.exec(await readFile(join(root, path), 'utf8'))?.[1];
      if (!url || url.startsWith('data:')) continue;
      expect(packedPaths.has(normalize(join(dirname(path), url))), `${path} points at ${url}`).toBe(true);
    }
  });

  it('carries the MIT licence and says where the project lives', async () => {
    expect(packedPaths.has('LICENSE')).toBe(true);
    const licence = await readFile(join(withPeers, 'node_modules/satang/LICENSE'), 'utf8');
    expect(licence).toMatch(/^MIT License/);
    expect(licence).toContain('Copyright (c) 2026 Satang contributors');
    expect(manifest.license).toBe('MIT');
    expect(manifest.repository?.url).toBe('git+https://github.com/satang-dev/satang.git');
    expect(manifest.homepage).toMatch(/^https:\/\/github\.com\/satang-dev\/satang/);
    expect(manifest.bugs?.url).toBe('https://github.com/satang-dev/satang/issues');
  });

  it('lists every script of dist/browser in sri.json with its sha384, lazy chunks included', async () => {
    const browser = join(withPeers, 'node_modules/satang/dist/browser');
    const sri = JSON.parse(await readFile(join(browser, 'sri.json'), 'utf8')) as Record<string, string>;
    const scripts = [...packedPaths].filter((p) => p.startsWith('dist/browser/') && p.endsWith('.js')).map((p) => p.slice('dist/browser/'.length));
    expect(Object.keys(sri).sort()).toEqual(scripts.sort());
    for (const script of scripts) {
      const expected = `sha384-${createHash('sha384').update(await readFile(join(browser, script))).digest('base64')}`;
      expect(sri[script], script).toBe(expected);
    }
  });
});

describe('installed alone, as a merchant server gets it', () => {
  it('brings no browser library, only what the server and the sandbox use', async () => {
    const packages = await installedPackages(serverOnly);
    expect(packages.filter((p) => BROWSER_LIBRARIES.includes(p))).toEqual([]);
    for (const dependency of Object.keys(manifest.dependencies ?? {})) expect(packages).toContain(dependency);
    for (const [peer, meta] of Object.entries(manifest.peerDependenciesMeta ?? {})) expect(meta.optional, `${peer} is an optional peer`).toBe(true);
  });

  it('imports satang/server, satang/core and satang/sandbox in Node', async () => {
    const script = [
      "const server = await import('satang/server');",
      "const core = await import('satang/core');",
      "const sandbox = await import('satang/sandbox');",
      'console.log(JSON.stringify({ handler: typeof server.createCheckoutHandler, core: Object.keys(core).length, sandbox: typeof sandbox.SANDBOX_DEFAULTS }));',
    ].join('\n');
    await writeFile(join(serverOnly, 'server.mjs'), script);
    expect(JSON.parse(await node(['server.mjs'], serverOnly))).toEqual({ handler: 'function', core: expect.any(Number) as number, sandbox: 'object' });
  });

  it('runs the satang-sandbox bin until it listens, then stops it', async () => {
    const bin = join(serverOnly, 'node_modules/.bin/satang-sandbox');
    const child = spawn(bin, ['--port', '0'], { cwd: serverOnly, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    try {
      const url = await new Promise<string>((resolveUrl, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner within ${SANDBOX_BANNER_TIMEOUT_MS} ms:\n${output}`)), SANDBOX_BANNER_TIMEOUT_MS);
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          const found = /listening on (http:\/\/\S+)/.exec(output)?.[1];
          if (found) {
            clearTimeout(timer);
            resolveUrl(found);
          }
        };
        child.stdout.on('data', read);
        child.stderr.on('data', read);
        child.on('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`satang-sandbox exited (${String(code)}) before listening:\n${output}`));
        });
      });
      const answer = await fetch(url);
      expect(answer.status, `GET ${url}`).toBeLessThan(500);
    } finally {
      if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGTERM');
    }
  }, STEP_TIMEOUT_MS);
});

describe('installed with its peers, as a bundler or TypeScript project gets it', () => {
  it('imports every export in Node, with no DOM, as a server rendering the page does', async () => {
    const lines = Object.entries(manifest.exports).map(([key, target]) => {
      const specifier = JSON.stringify(specifierOf(key));
      switch (kindOf(targetOf(target))) {
        case 'json':
          return `results[${specifier}] = typeof (await import(${specifier}, { with: { type: 'json' } })).default;`;
        case 'node':
          return `results[${specifier}] = Object.keys(await import(${specifier})).length > 0 ? 'imported' : 'empty';`;
      }
    });
    const script = ['const results = {};', ...lines, 'console.log(JSON.stringify(results));'].join('\n');
    await writeFile(join(withPeers, 'exports.mjs'), script);
    const results = JSON.parse(await node(['exports.mjs'], withPeers)) as Record<string, string>;
    const expected = Object.fromEntries(
      Object.entries(manifest.exports).map(([key, target]) => [specifierOf(key), { json: 'object', node: 'imported' }[kindOf(targetOf(target))]]),
    );
    expect(results).toEqual(expected);
  });

  it.each(['satang', 'satang/checkout', 'satang/card'])("bundles `import '%s'` in a Vite app into one file before the first render, lit included", async (specifier) => {
    const app = `app-${specifier.replace('/', '-')}.js`;
    await writeFile(join(withPeers, app), `import '${specifier}';\n`);
    const output = (await viteBuild({ root: withPeers, configFile: false, logLevel: 'error', mode: 'production', build: { write: false, rolldownOptions: { input: join(withPeers, app) } } })) as Rolldown.RolldownOutput;
    const chunks = output.output.filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
    const [entry, ...others] = chunks.filter((c) => c.isEntry);
    expect(others, 'one entry').toEqual([]);
    expect(entry?.imports, 'files the entry waits for').toEqual([]);
    expect(entry?.moduleIds.some((id) => id.includes('node_modules/lit-html/')), 'lit, from the project').toBe(true);
    expect(entry?.moduleIds.some((id) => id.includes('node_modules/satang/dist/elements/')), 'the package’s modules').toBe(true);
    expect(entry?.dynamicImports.length, 'the lazy chunks').toBeGreaterThan(0);
  }, STEP_TIMEOUT_MS);

  it('type-checks code using every export with tsc --strict --moduleResolution nodenext', async () => {
    const typed = Object.entries(manifest.exports).filter(([, target]) => kindOf(targetOf(target)) !== 'json');
    const source = [
      ...typed.map(([key], i) => `import type * as export${i} from '${specifierOf(key)}';`),
      "import { createCheckoutHandler } from 'satang/server';",
      "import { SANDBOX_DEFAULTS } from 'satang/sandbox';",
      "import type { SatangSuccessEvent } from 'satang';",
      `export type Exports = [${typed.map((_, i) => `typeof export${i}`).join(', ')}];`,
      'export const handler: typeof createCheckoutHandler = createCheckoutHandler;',
      'export const merchantId: string = SANDBOX_DEFAULTS.merchantId;',
      "export function listen(checkout: HTMLElementTagNameMap['satang-checkout']): void {",
      "  checkout.addEventListener('satang-success', (event: SatangSuccessEvent) => console.log(event.chargeId.toUpperCase()));",
      '}',
    ].join('\n');
    await writeFile(join(withPeers, 'uses-satang.ts'), `${source}\n`);
    const args = [TSC, '--strict', '--noEmit', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2023,dom,dom.iterable', '--types', 'node', 'uses-satang.ts'];
    const output = await node(args, withPeers).catch((error: unknown) => (error as Error).message);
    expect(output.trim(), 'tsc reports no error').toBe('');
  }, STEP_TIMEOUT_MS);
});

describe('the script files in Chromium', () => {
  let browser: Browser | undefined;
  let server: Server | undefined;
  let origin: string;
  let sri: Record<string, string>;

  beforeAll(async () => {
    const root = join(withPeers, 'node_modules/satang/dist/browser');
    sri = JSON.parse(await readFile(join(root, 'sri.json'), 'utf8')) as Record<string, string>;
    const http = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const path = url.pathname;
      const script = /^\/page\/([\w.-]+\.js)$/.exec(path)?.[1];
      if (script) {
        // The integrity of every file a page may load: the entry on its tag, the lazy chunks in the
        // import map (a wrong hash for each with ?tamper).
        const tamper = url.searchParams.has('tamper');
        const imports = Object.fromEntries(Object.entries(sri).map(([file, hash]) => [`/${file}`, tamper ? `sha384-${'A'.repeat(64)}` : hash]));
        const page = `<!doctype html><html lang="en"><head>
<script type="importmap">${JSON.stringify({ integrity: imports })}</script>
<script type="module" src="/${script}" integrity="${sri[script] ?? ''}" crossorigin="anonymous"></script>
</head><body></body></html>`;
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
        return;
      }
      const file = resolve(root, `.${path}`);
      if (!file.startsWith(root) || extname(file) !== '.js' || !existsSync(file)) {
        response.writeHead(404).end();
        return;
      }
      void readFile(file).then((body) => response.writeHead(200, { 'content-type': 'text/javascript' }).end(body));
    });
    server = http;
    await new Promise<void>((ready) => http.listen(0, '127.0.0.1', ready));
    origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  }, STEP_TIMEOUT_MS);

  const opened = (): Browser => {
    if (!browser) throw new Error(`Chromium (${CHROMIUM_PATH}) did not start`);
    return browser;
  };

  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => server?.close(done));
  });

  it.each(Object.entries(SCRIPT_ELEMENTS))('%s loads with its integrity and defines its elements', async (script, tags) => {
    const page = await opened().newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(`${origin}/page/${script}`);
      const defined = await page.evaluate(async (names) => {
        await Promise.race([Promise.all(names.map((n) => customElements.whenDefined(n))), new Promise((r) => setTimeout(r, 10_000))]);
        return names.filter((n) => customElements.get(n) !== undefined);
      }, tags);
      expect(defined, `elements defined by ${script}`).toEqual(tags);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, STEP_TIMEOUT_MS);

  it('loads the lazy QR chunk through the import map, whose integrity it matches', async () => {
    const qrcode = Object.keys(sri).find((file) => file.startsWith('chunks/qrcode-'));
    expect(qrcode, 'a QR chunk in sri.json').toBeDefined();
    const loadQr = async (query: string) => {
      const page = await opened().newPage();
      try {
        await page.goto(`${origin}/page/satang.js${query}`);
        await page.evaluate(() => customElements.whenDefined('satang-checkout'));
        // A string, so the test runner's transform leaves the page's import() alone.
        const drawQr = `import('/${qrcode ?? ''}').then(
          ({ default: encodeQR }) => (encodeQR('satang', 'raw').length > 0 ? 'drawn' : 'empty'),
          (error) => 'refused: ' + error.message,
        )`;
        return await page.evaluate<string>(drawQr);
      } finally {
        await page.close();
      }
    };
    expect(await loadQr('')).toBe('drawn');
    // A hash that does not match is refused: the import map's integrity is enforced.
    expect(await loadQr('?tamper')).toMatch(/^refused/);
  }, STEP_TIMEOUT_MS);
});
