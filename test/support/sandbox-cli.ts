/**
 * Starts the sandbox's real CLI (`bin/satang-sandbox.js`) as a child process, as a developer
 * would, and stops it by its PID. Any SANDBOX_* setting of the test runner is left out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

export const CLI_PATH = fileURLToPath(new URL('../../bin/satang-sandbox.js', import.meta.url));
const START_TIMEOUT_MS = 10_000;
const EXIT_TIMEOUT_MS = 5_000;
/**
 * The most a run to completion may take, start-up included: a fresh Node loading the CLI can take
 * several seconds on a busy machine, so this is a deadline against a hang, under the test's 20 s.
 */
const RUN_TIMEOUT_MS = 15_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface CliProcess {
  child: ChildProcess;
  /** Output so far. */
  stdout: () => string;
  stderr: () => string;
  /** Resolves once the process has exited and its output is closed. */
  closed: Promise<Exit>;
}

export interface RunningCli extends CliProcess {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  /** What it printed on start. */
  banner: string;
}

const liveChildren = new Set<ChildProcess>();

/** The test runner's environment without any SANDBOX_* setting that could leak into the CLI. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('SANDBOX_')) env[name] = value;
  return { ...env, ...extra };
}

export function spawnCli(args: string[], env: NodeJS.ProcessEnv = cleanEnv()): CliProcess {
  const child = spawn(process.execPath, [CLI_PATH, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  liveChildren.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = new Promise<Exit>((resolve) => {
    child.once('close', (code, signal) => {
      liveChildren.delete(child);
      resolve({ code, signal });
    });
  });
  return { child, stdout: () => stdout, stderr: () => stderr, closed };
}

/** Starts `satang-sandbox --port 0 --quiet ...args` and waits for its start-up banner. */
export async function startCli(args: string[] = [], env?: NodeJS.ProcessEnv): Promise<RunningCli> {
  const cli = spawnCli(['--port', '0', '--quiet', ...args], env);
  // The banner is one write that ends with the catch-all test card line.
  const bannerShown = () => /any other valid.*\n/.test(cli.stdout());
  await new Promise<void>((resolve, reject) => {
    const stdout = cli.child.stdout!;
    const done = (error?: Error) => {
      clearTimeout(timer);
      stdout.off('data', heard);
      if (error) reject(error);
      else resolve();
    };
    // After spawnCli's own listener has added the chunk to the output.
    const heard = () => bannerShown() && done();
    const timer = setTimeout(() => {
      cli.child.kill('SIGKILL');
      done(new Error(`satang-sandbox did not start in time; stdout: ${cli.stdout()} stderr: ${cli.stderr()}`));
    }, START_TIMEOUT_MS);
    stdout.on('data', heard);
    void cli.closed.then((exit) => done(new Error(`satang-sandbox exited early (${JSON.stringify(exit)}): ${cli.stderr()}`)));
    if (bannerShown()) done();
  });
  const match = /^satang-sandbox listening on (http:\/\/127\.0\.0\.1:(\d+))$/m.exec(cli.stdout());
  if (!match) {
    cli.child.kill('SIGKILL');
    throw new Error(`no listening line in: ${cli.stdout()}`);
  }
  return { ...cli, url: match[1]!, port: Number(match[2]), banner: cli.stdout() };
}

/** Runs the CLI to completion (for flags that make it exit at once). */
export async function runCli(args: string[], env?: NodeJS.ProcessEnv): Promise<Exit & { stdout: string; stderr: string }> {
  const cli = spawnCli(args, env);
  const timer = setTimeout(() => cli.child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  try {
    const exit = await cli.closed;
    return { ...exit, stdout: cli.stdout(), stderr: cli.stderr() };
  } finally {
    clearTimeout(timer);
  }
}

/** Stops a CLI with SIGTERM (SIGKILL if it does not go) and resolves with how it exited. */
export async function stopCli(cli: CliProcess | undefined): Promise<Exit | undefined> {
  if (!cli) return undefined;
  if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGTERM');
  const timer = setTimeout(() => cli.child.kill('SIGKILL'), EXIT_TIMEOUT_MS);
  try {
    return await cli.closed;
  } finally {
    clearTimeout(timer);
  }
}

// Whatever a failed test left running.
afterAll(() => {
  for (const child of liveChildren) child.kill('SIGKILL');
});
