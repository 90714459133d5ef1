import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { promisify } from 'node:util';
import { REPO_ROOT } from './sizes.js';

/** One server of proxy-target.ts in a process of its own, and the lines it prints. */
export interface Target {
  child: ChildProcess;
  url: string;
  lines: Interface;
}

const TARGET = join(REPO_ROOT, 'test/bench/proxy-target.ts');
const run = promisify(execFile);
let serverBuild: Promise<string> | undefined;

/**
 * `satang/server` compiled as the package ships it (tsc, test/bench/tsconfig.server.json), once
 * per run: the shop runs the code a merchant runs, not the sources as tsx loads them (tsx keeps
 * function names with a helper that gives every named closure its own property store, about 200
 * bytes more for each one a held request keeps, and a call more per function made).
 */
export function buildServer(): Promise<string> {
  serverBuild ??= run(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(REPO_ROOT, 'test/bench/tsconfig.server.json')], { cwd: REPO_ROOT }).then(() =>
    join(REPO_ROOT, 'bench-results/server-build/server/index.js'),
  );
  return serverBuild;
}

/** Starts `proxy-target.ts <args>` (with --expose-gc when `gc`; a shop on {@link buildServer}), once it prints its URL. */
export async function startTarget(args: string[], options: { gc?: boolean } = {}): Promise<Target> {
  const env = args[0] === 'shop' ? { ...process.env, SATANG_SERVER_MODULE: await buildServer() } : process.env;
  const child = spawn(process.execPath, [...(options.gc ? ['--expose-gc'] : []), '--import', 'tsx', TARGET, ...args], { cwd: REPO_ROOT, env, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`proxy-target ${args[0]} exited with ${code}`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
  });
  child.removeAllListeners('exit');
  return { child, url, lines };
}

/** Asks a target one of its questions (`cpu`, `mem`, `reads`) and reads its one-line JSON answer. */
export async function askTarget<T>(target: Target, question: string): Promise<T> {
  const answer = new Promise<string>((resolve) => target.lines.once('line', resolve));
  target.child.stdin?.write(`${question}\n`);
  return JSON.parse(await answer) as T;
}

/** Stops a target with SIGTERM and waits for it to exit. */
export function stopTarget(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
