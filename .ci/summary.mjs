// Prints one closing line for the whole run, from the JSON reports of vitest and Playwright:
// "tests: N passed, N failed, N skipped".
import { existsSync, readFileSync } from 'node:fs';

const read = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined);
let passed = 0;
let failed = 0;
let skipped = 0;

const unit = read('reports/vitest.json');
if (unit) {
  passed += unit.numPassedTests;
  failed += unit.numFailedTests;
  skipped += unit.numPendingTests + (unit.numTodoTests ?? 0);
}
// The end-to-end tests: a smoke run on the source modules (the demo as `npm start` serves it), then
// every spec on the built elements.
const e2e = read('reports/playwright.json');
const e2eBuilt = read('reports/playwright-built.json');
for (const report of [e2e, e2eBuilt]) {
  if (!report) continue;
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
  skipped += report.stats.skipped;
}
const missing = [!unit && 'unit', !e2e && 'e2e smoke on the sources', !e2eBuilt && 'e2e on the built elements'].filter(Boolean);
if (missing.length > 0) console.log(`(missing report: ${missing.join(', ')})`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
