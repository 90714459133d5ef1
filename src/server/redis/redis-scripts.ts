/**
 * The two Lua scripts of the Redis store. Each reads and writes one key only (`KEYS[1]`), so it
 * runs on whichever node holds that key's slot, in Redis Cluster as on a single server, and each
 * is one atomic step: no other command runs between its read and its write.
 */

import { createHash } from 'node:crypto';
import type { RedisScriptOptions } from './redis-client.js';

/** A script, known to the server by its SHA-1 once it has run there. */
export interface RedisScript {
  readonly source: string;
  readonly sha1: string;
}

function script(source: string): RedisScript {
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
}

/**
 * A value as the store keeps it: `<version>|<value>`, the version empty for a value written
 * without one. One key holds both, so `setIfNewer` compares and writes one key, and a plain `set`
 * (no version) counts as older than any version, as in the in-memory store.
 */
export const VERSION_SEPARATOR = '|';

/**
 * `setIfNewer`: KEYS[1] the key; ARGV[1] the version (as the caller wrote it, so no float is
 * reformatted), ARGV[2] the value, ARGV[3] the time to live in ms. 1 when it stored, 0 when the key
 * holds a version at least as high.
 */
export const SET_IF_NEWER = script(`
local held = redis.call('GET', KEYS[1])
if held then
  local bar = string.find(held, '|', 1, true)
  local version = bar and tonumber(string.sub(held, 1, bar - 1))
  if version and version >= tonumber(ARGV[1]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. ARGV[2], 'PX', ARGV[3])
return 1
`);

/**
 * `increment`: KEYS[1] the counter, ARGV[1] its window in ms. The window's expiry is set by the
 * increment that creates the counter (and on any counter found without one), never moved after,
 * so a window ends `windowMs` after its first request whatever follows.
 */
export const INCREMENT = script(`
local count = redis.call('INCR', KEYS[1])
if count == 1 or redis.call('PTTL', KEYS[1]) < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return count
`);

/** What runs a script: EVALSHA, and EVAL when the server does not know it yet (a new or restarted server). */
export interface ScriptRunner {
  evalSha(sha1: string, options: RedisScriptOptions): Promise<unknown>;
  eval(script: string, options: RedisScriptOptions): Promise<unknown>;
}

/** Runs `script` by its SHA-1, sending its source only when the server answers NOSCRIPT. */
export async function runScript(client: ScriptRunner, { source, sha1 }: RedisScript, options: RedisScriptOptions): Promise<unknown> {
  try {
    return await client.evalSha(sha1, options);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return client.eval(source, options);
  }
}
