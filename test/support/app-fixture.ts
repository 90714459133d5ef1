import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, link, mkdir, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * A merchant's app as a fixture of the suite: the package compiled into the app's
 * node_modules/satang as `npm run build` compiles it, the app's own commands run to their end, and
 * its server started, waited on and stopped by its id. For the apps of
 * test/build/framework-shops.test.ts (SvelteKit, Vue, Astro).
 */

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSC = `${ROOT}node_modules/typescript/bin/tsc`;

/** The keys a shop reads when it runs, and that must not be there while it is built. */
export const SHOP_ENV = ['SATANG_SERVICE_URL', 'SATANG_MERCHANT_ID', 'SATANG_API_KEY', 'SATANG_PUBLISHABLE_KEY', 'SATANG_PUBLIC_URL', 'SATANG_WEBHOOK_KEY'];

/** This process's environment without the shop's keys and without NODE_ENV (vitest's "test"): what a build or a server starts from. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [...SHOP_ENV, 'NODE_ENV']) Reflect.deleteProperty(env, name);
  return env;
}

/** What a command printed and how it ended, with the seconds it took on the clock and of CPU (its own and its children's). */
export interface Finished {
  code: number | null;
  output: string;
  wallSeconds: number;
  cpuSeconds: number;
}

/** The CPU seconds of this process's finished children (from /proc, Linux), or undefined elsewhere. */
async function childrenCpuSeconds(): Promise<number | undefined> {
  try {
    const stat = await readFile('/proc/self/stat', 'utf8');
    // Fields after the command's name: cutime and cstime are the 14th and 15th after it, in clock ticks (100 a second).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/** Runs `node args…` to its end in a process group of its own, so that one past its time goes with what it started. */
export async function runNode(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Finished> {
  const cpuBefore = await childrenCpuSeconds();
  const started = performance.now();
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env ?? cleanEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const timer = setTimeout(() => {
      text += `\n(stopped after ${options.timeoutMs} ms)`;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ code: exitCode, output: text });
    });
  });
  const cpuAfter = await childrenCpuSeconds();
  return { code, output, wallSeconds: (performance.now() - started) / 1000, cpuSeconds: cpuBefore === undefined || cpuAfter === undefined ? Number.NaN : cpuAfter - cpuBefore };
}

/**
 * The package compiled as `npm run build` compiles it (tsconfig.build.json's settings, declarations
 * included) from the sources of `parts` (`src/elements`, …, and what they import), into
 * `project`/node_modules/satang beside a copy of package.json, so the project reaches it through its
 * `exports` as a merchant's does. A node_modules left by an earlier run is removed first.
 */
export async function buildPackageInto(project: string, parts: readonly string[]): Promise<Finished> {
  const pkg = `${project}/node_modules/satang`;
  await rm(`${project}/node_modules`, { recursive: true, force: true });
  await mkdir(pkg, { recursive: true });
  await copyFile(`${ROOT}package.json`, `${pkg}/package.json`);
  const tsconfig = { extends: `${ROOT}tsconfig.build.json`, compilerOptions: { rootDir: `${ROOT}src`, outDir: `${pkg}/dist` }, include: parts.map((part) => `${ROOT}src/${part}`) };
  await writeFile(`${pkg}/tsconfig.json`, JSON.stringify(tsconfig));
  return runNode([TSC, '-p', `${pkg}/tsconfig.json`], { cwd: ROOT, env: process.env, timeoutMs: 300_000 });
}

/** A copy of a directory whose files are hard links to the originals (copies where a link cannot be made). */
export async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = `${from}/${entry.name}`;
    const target = `${to}/${entry.name}`;
    if (entry.isDirectory()) await linkTree(source, target);
    else if (entry.isSymbolicLink()) await symlink(await readlink(source), target);
    else await link(source, target).catch(() => copyFile(source, target));
  }
}

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** An app's server, started by {@link startServer}. */
export interface AppServer {
  child: ChildProcess;
  /** What it printed so far. */
  output: () => string;
  /** Stops it by its process group: SIGTERM, then SIGKILL if it is still there after 5 s. */
  stop: () => Promise<void>;
}

/**
 * Starts `node args…` in `cwd` in a process group of its own, and answers once it prints `ready`
 * (a server's "Listening on …" line); fails if it exits first or does not print it in `timeoutMs`.
 */
export async function startServer(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; ready: RegExp; timeoutMs: number }): Promise<AppServer> {
  const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const server: AppServer = { child, output: () => output, stop: () => stopProcess(child) };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not print ${String(options.ready)} within ${options.timeoutMs} ms:\n${output}`)), options.timeoutMs);
      const heard = (chunk: Buffer) => {
        output += chunk.toString();
        if (options.ready.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on('data', heard);
      child.stderr.on('data', heard);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${args.join(' ')} exited with ${String(code)}:\n${output}`));
      });
    });
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/** Stops a child by its process group, the one it was started in. */
export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  process.kill(-child.pid, 'SIGTERM');
  const stopped = await Promise.race([gone.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000))]);
  if (!stopped) {
    process.kill(-child.pid, 'SIGKILL');
    await gone;
  }
}
