import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toRequest, writeResponse } from '../node/node-adapter.js';
import { SANDBOX_DEFAULTS } from './defaults.js';
import { Sandbox, type SandboxOptions } from './sandbox.js';

/** The longest a request's headers may take to arrive at the sandbox's socket. */
export const SANDBOX_HEADERS_TIMEOUT_MS = 10_000;
/** The longest a whole request (headers and body, a slip upload included) may take to arrive. */
export const SANDBOX_REQUEST_TIMEOUT_MS = 15_000;

/** A sandbox listening on a socket. */
export interface RunningSandbox {
  sandbox: Sandbox;
  server: Server;
  /** e.g. `http://127.0.0.1:4010` */
  url: string;
  /** Stops listening, ends open connections and stops webhook retries. */
  close(): Promise<void>;
}

/**
 * Starts the sandbox on `host:port` (port 0 picks a free one). Resolves once it accepts
 * connections; rejects when the port is taken.
 */
export async function listenSandbox(
  options: SandboxOptions & { port?: number; host?: string } = {},
): Promise<RunningSandbox> {
  const { port = SANDBOX_DEFAULTS.port, host = SANDBOX_DEFAULTS.host, ...sandboxOptions } = options;
  const sandbox = new Sandbox(sandboxOptions);
  const listener = sandboxListener(sandbox);
  const server = createServer(
    {
      // A request's headers, and the whole request, must arrive within these: a client sending a
      // byte at a time is answered 408 and its socket closed, rather than held for minutes.
      headersTimeout: SANDBOX_HEADERS_TIMEOUT_MS,
      requestTimeout: SANDBOX_REQUEST_TIMEOUT_MS,
      // How often node:http checks those deadlines (30 s by default, longer than the deadlines).
      connectionsCheckingInterval: 1_000,
    },
    (req, res) => void listener(req, res),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    sandbox,
    server,
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        sandbox.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The sandbox on a Node request. `Sandbox.fetch` only rejects, and an answer's body only fails,
 * for an injected fault (`sandbox.faults`): the socket then does what the network would, a reset
 * without an answer, or a body cut short of its Content-Length.
 *
 * An answer given before the body was read to its end (413 at the cap, 401 before the body) closes
 * the connection after it: the rest of the body is never read, and a kept-alive socket would
 * otherwise stall the client's next request behind the unread bytes.
 */
function sandboxListener(sandbox: Sandbox) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let response: Response;
    try {
      response = await sandbox.fetch(toRequest(req, {}, res));
    } catch {
      res.socket?.resetAndDestroy();
      return;
    }
    if (!req.complete) res.setHeader('connection', 'close');
    try {
      await writeResponse(response, res);
    } catch {
      // What was written goes out, then the connection closes short of the declared length.
      const socket = res.socket;
      if (socket) socket.end(() => socket.destroy());
      else res.destroy();
    }
  };
}
