import { startLoadSandbox, startLoadShop, type LoadSandbox, type LoadShop, type LoadShopOptions } from './load-stack.js';

/**
 * One server of the checkout load run in a process of its own (started with fork, so it has an
 * IPC channel), so the load driver, the shop and the sandbox each have their own event loop and heap:
 *
 *   node --expose-gc --import tsx test/bench/load-stack-child.ts shop [options as JSON]
 *   node --expose-gc --import tsx test/bench/load-stack-child.ts sandbox <webhook url>
 *
 * Sends `{ready, url}` once it listens, then answers `{id, op}` messages with `{id, result}`:
 * `attach` (shop: the sandbox's URL), `sample` (memory, optionally after a full GC), `stats`
 * (shop: its answers), `idle` (sandbox: every webhook delivered), `close`.
 */

interface Message {
  id: number;
  op: 'attach' | 'sample' | 'stats' | 'idle' | 'close';
  arg?: unknown;
}

const [role, arg] = process.argv.slice(2);
// A clean exit on SIGTERM, so node's exit hooks run (e.g. --cpu-prof writes its profile).
process.on('SIGTERM', () => process.exit(0));
const send = (message: unknown) => process.send!(message);

/** Answers each message with what `handle` makes of it; after `close`, leaves the IPC channel. */
function answerMessages(handle: (message: Message) => Promise<unknown>): void {
  process.on('message', (message: Message) => {
    void handle(message).then((result) => {
      send({ id: message.id, result });
      if (message.op === 'close') process.disconnect();
    });
  });
}

if (role === 'shop') {
  const shop: LoadShop = await startLoadShop(arg ? (JSON.parse(arg) as LoadShopOptions) : {});
  answerMessages(async (message) => {
    if (message.op === 'sample') return shop.sample(Boolean(message.arg));
    if (message.op === 'stats') return shop.stats();
    if (message.op === 'attach') shop.attach(String(message.arg));
    if (message.op === 'close') await shop.close();
    return undefined;
  });
  send({ ready: true, url: shop.origin });
} else if (role === 'sandbox' && arg) {
  const sandbox: LoadSandbox = await startLoadSandbox(arg);
  answerMessages(async (message) => {
    if (message.op === 'sample') return sandbox.sample(Boolean(message.arg));
    if (message.op === 'idle') await sandbox.idle();
    if (message.op === 'close') await sandbox.close();
    return undefined;
  });
  send({ ready: true, url: sandbox.url });
} else {
  console.error('usage: load-stack-child.ts shop [options as JSON] | sandbox <webhook url>');
  process.exit(2);
}
