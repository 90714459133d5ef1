import { fork } from 'node:child_process';
import { join } from 'node:path';

/**
 * Serves the shop's pages and the built files (`pageListener`) from a child process, for the
 * first render. In the bench's own process the server shares its event loop with Playwright's
 * traffic with Chromium, so a page's fetches can wait on the bench itself: one cause of noise
 * fewer. What noise is left, the report gives as the ratio's bootstrap interval.
 */
export async function startPageServer(wwwDir: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const child = fork(join(import.meta.dirname, 'page-server-child.ts'), [wwwDir], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const origin = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { origin: string }).origin));
    child.once('exit', (code) => reject(new Error(`page-server-child exited with ${code}`)));
  });
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}
