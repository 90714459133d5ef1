import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    // The JSON report feeds the one-line summary that .ci/run prints.
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
  },
});
