/**
 * The page server of the first-render measurement, in a process of its own:
 *
 *   node --import tsx test/bench/page-server-child.ts <www dir>
 *
 * Answers the parent (IPC) with `{ origin }` once it listens, and exits when the parent goes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pageListener } from './stack.js';

const [wwwDir] = process.argv.slice(2);
if (!wwwDir || !process.send) throw new Error('usage: fork page-server-child.ts <www dir> (with an IPC channel)');
let origin = '';
const server = createServer(pageListener(wwwDir, () => origin));
server.listen(0, '127.0.0.1', () => {
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.send!({ origin });
});
process.on('disconnect', () => process.exit(0));
