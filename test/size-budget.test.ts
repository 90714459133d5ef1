import { beforeAll, describe, expect, it } from 'vitest';
import { BUDGETS, buildCheckout, buildConsumer, buildModule, checkBudgets, describeBudget, type BudgetCheck, type ConsumerBuild } from './bench/sizes.js';

/**
 * The download budgets of DESIGN.md, brotli (quality 11), Lit included. Builds the real browser
 * entries with vite.config.ts (in memory; dist/ is not touched) and measures them. Sizes are stable
 * from run to run, so they are asserted here; timings are reported by `npm run bench` only.
 */

const BUILD_TIMEOUT_MS = 120_000;

describe('the browser bundles', () => {
  let checks: BudgetCheck[];
  let consumer: ConsumerBuild;

  beforeAll(async () => {
    consumer = await buildConsumer(await buildModule(), 'satang');
    checks = checkBudgets(await buildCheckout(), consumer);
    // Every size in the log, passing or not, so a failure shows the whole picture.
    console.log(`size budgets (brotli):\n${checks.map((c) => `  ${describeBudget(c)}`).join('\n')}`);
  }, BUILD_TIMEOUT_MS);

  const check = (file: string) => {
    const found = checks.find((c) => c.file === file || (file === 'qrcode' && c.file.startsWith('chunks/qrcode-')) || (file === 'consumer' && c.file.startsWith("import 'satang'")));
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

  it(`keeps \`import 'satang'\`, as a bundler ships it, within ${BUDGETS.defaultEntryConsumerBrotli / 1024} KB brotli before the first render`, () => {
    const c = check('consumer');
    expect(c.brotli, `${describeBudget(c)}: ${consumer.initial.map((f) => `${f.fileName} ${f.brotli} B`).join(', ')}`).toBeLessThanOrEqual(BUDGETS.defaultEntryConsumerBrotli);
  });

  it('keeps the QR renderer, the QR element and the other methods out of what `import \'satang\'` loads first', () => {
    const first = consumer.initial.flatMap((f) => f.modules.map((m) => m.id));
    for (const lazy of ['qrcode/', 'jsqr/', 'satang-qr-payment/', 'satang-checkout/panels.ts', 'satang-checkout/charge-steps.ts', 'marks/provider-marks.ts', 'marks/card-brand-marks.ts']) {
      expect(first.filter((id) => id.includes(lazy)), lazy).toEqual([]);
    }
  });
});
