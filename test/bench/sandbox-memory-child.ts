import { listenSandbox } from '../../src/sandbox/index.js';

/**
 * The sandbox of the memory bench, in a process of its own (started with fork, so it has an IPC
 * channel) so its resident set holds nothing of the load generator:
 *
 *   node --expose-gc --import tsx test/bench/sandbox-memory-child.ts
 *
 * Sends `{ready, url}` once `listenSandbox` listens on a free port, then answers `sample` with its
 * memory after a full GC (two, when node runs with --expose-gc) and `close` by stopping.
 */

const gc = (globalThis as { gc?: () => void }).gc;
const running = await listenSandbox({ port: 0, host: '127.0.0.1' });

process.on('message', (message: 'sample' | 'close') => {
  if (message === 'sample') {
    gc?.();
    gc?.();
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    process.send!({ sample: { rss, heapUsed, external, arrayBuffers, gcForced: gc !== undefined } });
    return;
  }
  void running.close().then(() => process.disconnect());
});
process.send!({ ready: true, url: running.url });
