/**
 * The URL the Node adapter gives a handler comes from the server's origin and the request's
 * path: a path written like `//other.host/x` does not move the request to another host.
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { toNodeListener } from '../../src/server/index.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Sends a raw request line (fetch would normalise the path) and answers the body. */
function rawGet(port: number, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(`GET ${target} HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n\r\n`));
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer.slice(answer.indexOf('\r\n\r\n') + 4)));
    socket.on('error', reject);
  });
}

it.each([
  ['//evil.example/api/checkout/charges', 'http://shop.example//evil.example/api/checkout/charges'],
  ['/api/checkout/charges?x=1', 'http://shop.example/api/checkout/charges?x=1'],
  ['http://other.example/api/checkout', 'http://other.example/api/checkout'],
])('gives the handler %s as %s', async (target, expected) => {
  server = createServer(toNodeListener((request) => Promise.resolve(new Response(request.url, { headers: { 'content-length': String(Buffer.byteLength(request.url)) } }))));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  expect(await rawGet((server.address() as AddressInfo).port, target)).toBe(expected);
});
