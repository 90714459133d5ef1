/**
 * What the Redis store needs of a client: the few commands it sends, as node-redis (`redis` on
 * npm, v5 or v6) spells them. A client of `createClient()` and a cluster of `createCluster()` both
 * fit, so the store is typed against neither version's generics and this entry point imports no
 * code of `redis` at all: the shop's own client is what runs.
 */

/** Keys and arguments of EVAL and EVALSHA. */
export interface RedisScriptOptions {
  keys: string[];
  arguments: string[];
}

/** SET's options the store uses: an expiry in milliseconds always, NX for `setIfAbsent`. */
export interface RedisSetOptions {
  expiration: { type: 'PX'; value: number };
  condition?: 'NX';
}

/** A message listener as node-redis calls it (a Buffer only in buffer mode, which the store does not ask for). */
export type RedisMessageListener = (message: string | Uint8Array, channel: string | Uint8Array) => void;

/** A connection the store subscribes on (pub/sub needs its own connection in node-redis). */
export interface RedisSubscriber {
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: RedisMessageListener): Promise<unknown>;
  unsubscribe(channel: string, listener: RedisMessageListener): Promise<unknown>;
  close(): Promise<unknown>;
  destroy(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'ready', listener: () => void): unknown;
}

/** A connected node-redis client or cluster: the commands of the store, and a way to open a subscriber. */
export interface RedisCommandClient {
  get(key: string): Promise<string | Uint8Array | null>;
  set(key: string, value: string, options: RedisSetOptions): Promise<unknown>;
  del(key: string): Promise<unknown>;
  evalSha(sha1: string, options: RedisScriptOptions): Promise<unknown>;
  eval(script: string, options: RedisScriptOptions): Promise<unknown>;
  publish(channel: string, message: string): Promise<unknown>;
  /** A new connection with the same options, not yet connected. */
  duplicate(): RedisSubscriber;
}
