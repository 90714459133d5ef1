import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * A full garbage collection, now: for a test whose subject must hold on to what it still needs
 * (Node's fetch, for one, drops the abort of a collected Request's copy: nodejs/undici#4068).
 */
export function collectGarbage(): void {
  gc();
  gc();
}
