import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How long a redis-server may take to answer PING after it is started. */
const START_TIMEOUT_MS = 10_000;

/** A redis-server of the tests' own: on a free loopback port, without persistence, stopped by its PID. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Its working folder (a single-node cluster's config file), removed by {@link stopRedisServer}. */
  readonly dir: string;
  /** Its process id while it runs. */
  readonly pid: number | undefined;
  /** Stops it (SIGTERM, then SIGKILL) and waits for it to exit; what it held is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty (a single-node cluster gets its slots again). */
  start(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open and nothing is answered, as a Redis stuck in a long pause. */
  pause(): void;
  resume(): void;
}

/**
 * Starts `redis-server` (the Debian package `redis-server`, which `.ci/run` installs) on a free port
 * with `--save '' --appendonly no`, and waits until it answers PING. `cluster`: a single-node Redis
 * Cluster holding all 16,384 slots, which refuses any command whose keys hash to different slots,
 * as a managed cluster does. Throws when it cannot start, failing the tests that need it.
 */
export async function startRedisServer(options: { cluster?: boolean } = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'satang-redis-'));
  let child: ChildProcess | undefined;

  const start = async () => {
    if (child !== undefined) return;
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
    if (options.cluster) {
      // A fresh node every start: the config file of the one before would bring its slots back.
      rmSync(join(dir, 'nodes.conf'), { force: true });
      args.push('--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf');
    }
    const started = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    started.once('exit', () => {
      if (child === started) child = undefined;
    });
    let output = '';
    started.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000)));
    started.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000)));
    const failed = new Promise<never>((_, reject) => {
      started.once('error', (error) => reject(new Error(`redis-server could not be started (${error.message}): install the Debian package redis-server, as .ci/run does`)));
      started.once('exit', (code, signal) => reject(new Error(`redis-server exited at start (${code ?? signal}):\n${output}`)));
    });
    failed.catch(() => undefined);
    child = started;
    await Promise.race([waitForPong(port), failed]);
    if (options.cluster) {
      await Promise.race([send(port, 'CLUSTER ADDSLOTSRANGE 0 16383'), failed]);
      await Promise.race(
        [
          poll(async () => (await send(port, 'CLUSTER INFO')).includes('cluster_state:ok'), 'the single-node cluster to be ok'),
          failed,
        ],
      );
    }
  };

  const stop = async () => {
    const running = child;
    child = undefined;
    if (running?.pid === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    process.kill(running.pid, 'SIGCONT');
    process.kill(running.pid, 'SIGTERM');
    const killer = setTimeout(() => running.pid !== undefined && process.kill(running.pid, 'SIGKILL'), 3_000);
    await exited;
    clearTimeout(killer);
  };

  // A test run that ends without stopping it (a crash, a timeout) leaves no server behind.
  process.once('exit', () => {
    try {
      if (child?.pid !== undefined) process.kill(child.pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  });
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    get pid() {
      return child?.pid;
    },
    start,
    async stop() {
      await stop();
    },
    pause() {
      if (child?.pid !== undefined) process.kill(child.pid, 'SIGSTOP');
    },
    resume() {
      if (child?.pid !== undefined) process.kill(child.pid, 'SIGCONT');
    },
  };
}

/** Stops the server for good, and removes its working folder. */
export async function stopRedisServer(server: RedisServer | undefined): Promise<void> {
  if (!server) return;
  await server.stop();
  rmSync(server.dir, { recursive: true, force: true });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPong(port: number): Promise<void> {
  await poll(async () => (await send(port, 'PING').catch(() => '')).startsWith('+PONG'), `redis-server on port ${port} to answer PING`);
}

async function poll(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out after ${START_TIMEOUT_MS} ms waiting for ${what}`);
}

/** One inline command on a connection of its own; the answer as sent (enough for PING and CLUSTER). */
function send(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let answer = '';
    const timer = setTimeout(() => socket.destroy(new Error(`no answer to ${command}`)), 2_000);
    socket.on('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
      if (complete(answer)) {
        clearTimeout(timer);
        socket.end();
        resolve(answer);
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** A whole simple answer: a status, an error, an integer, or a bulk string of its announced length. */
function complete(answer: string): boolean {
  if (!answer.includes('\r\n')) return false;
  if (!answer.startsWith('$')) return true;
  const header = answer.slice(0, answer.indexOf('\r\n'));
  const length = Number(header.slice(1));
  return length < 0 || Buffer.byteLength(answer) >= header.length + 2 + length + 2;
}
