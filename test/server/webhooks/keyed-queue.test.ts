import { describe, expect, it } from 'vitest';
import { KeyedQueue } from '../../../src/server/webhooks/keyed-queue.js';

describe('KeyedQueue', () => {
  it('runs the tasks of one key in turn, past failures, and lets other keys run meanwhile', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = queue.run('a', async () => {
      await held;
      log.push('a1');
      throw new Error('a1 failed');
    });
    const second = queue.run('a', () => Promise.resolve(log.push('a2')));
    await queue.run('b', () => Promise.resolve(log.push('b1')));
    expect(log).toEqual(['b1']);
    release();
    await expect(first).rejects.toThrow('a1 failed');
    await second;
    expect(log).toEqual(['b1', 'a1', 'a2']);
    await Promise.resolve();
    expect(queue.size).toBe(0);
  });
});
