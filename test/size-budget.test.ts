import { beforeAll, describe, expect, it } from 'vitest';
import { BUDGETS, buildCheckout, checkBudgets, describeBudget, type BudgetCheck } from './bench/sizes.js';

/**
 * The download budgets of DESIGN.md, brotli (quality 11), Lit included. Builds the real browser
 * entries with vite.config.ts (in memory; dist/ is not touched) and measures them. Sizes are stable
 * from run to run, so they are asserted here; timings are reported by `npm run bench` only.
 */

const BUILD_TIMEOUT_MS = 120_000;

describe('the browser bundles', () => {
  let checks: BudgetCheck[];

  beforeAll(async () => {
    checks = checkBudgets(await buildCheckout());
    // Every size in the log, passing or not, so a failure shows the whole picture.
    console.log(`size budgets (brotli):\n${checks.map((c) => `  ${describeBudget(c)}`).join('\n')}`);
  }, BUILD_TIMEOUT_MS);

  const check = (file: string) => {
    const found = checks.find((c) => c.file === file || (file === 'qrcode' && c.file.startsWith('chunks/qrcode-')));
    if (!found) throw new Error(`no size measured for ${file}`);
    return found;
  };

  it(`keeps the card checkout (satang-card.js) within ${BUDGETS.cardInitialBrotli / 1024} KB brotli`, () => {
    const c = check('satang-card.js');
    expect(c.brotli, describeBudget(c)).toBeLessThanOrEqual(BUDGETS.cardInitialBrotli);
  });

  it(`keeps every method's initial load (satang-checkout.js) within ${BUDGETS.allMethodsInitialBrotli / 1024} KB brotli`, () => {
    const c = check('satang-checkout.js');
    expect(c.brotli, describeBudget(c)).toBeLessThanOrEqual(BUDGETS.allMethodsInitialBrotli);
  });

  it(`keeps the lazy QR chunk within ${BUDGETS.qrChunkBrotli / 1024} KB brotli`, () => {
    const c = check('qrcode');
    expect(c.brotli, describeBudget(c)).toBeLessThanOrEqual(BUDGETS.qrChunkBrotli);
  });
});
