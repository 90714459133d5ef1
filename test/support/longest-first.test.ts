import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LONGEST } from './longest-first.js';

const ROOT = join(import.meta.dirname, '../..');

describe('the files started first', () => {
  // A file renamed or moved would silently fall back to the glob's order, and end the run alone again.
  it.each(LONGEST)('%s is a test file of the suite', (file) => {
    expect(existsSync(join(ROOT, file))).toBe(true);
    expect(file).toMatch(/^test\/.+\.test\.ts$/);
  });
});
