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
const e2e = read('reports/playwright.json');
if (e2e) {
  passed += e2e.stats.expected + e2e.stats.flaky;
  failed += e2e.stats.unexpected;
  skipped += e2e.stats.skipped;
}
if (!unit || !e2e) console.log(`(missing report: ${!unit ? 'unit ' : ''}${!e2e ? 'e2e' : ''})`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
