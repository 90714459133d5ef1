import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener } from '../server/node-adapter.js';
import { SANDBOX_DEFAULTS } from './defaults.js';
import { Sandbox, type SandboxOptions } from './sandbox.js';

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
  const server = createServer(toNodeListener(sandbox.fetch));
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
