import { beforeAll, describe, expect, it } from 'vitest';
import {
  BUDGETS,
  buildCheckout,
  buildConsumer,
  buildPackage,
  buildViteConsumer,
  checkBudgets,
  describeBudget,
  kb,
  packageEntry,
  type BudgetCheck,
  type ConsumerBuild,
  type ViteConsumerBuild,
} from './bench/sizes.js';

/**
 * The download budgets of DESIGN.md, brotli (quality 11), Lit included. Builds the script-tag files
 * with vite.config.ts (in memory; dist/ is not touched), and the package's modules with tsc for a
 * merchant's app (`import 'satang'`) built by Vite; esbuild's bundle of the same is reported. Sizes
 * are stable from run to run, so they are asserted here; timings are reported by `npm run bench`.
 */

const BUILD_TIMEOUT_MS = 300_000;

describe('the browser bundles', () => {
  let checks: BudgetCheck[];
  let vite: ViteConsumerBuild;
  let esbuild: ConsumerBuild;

  beforeAll(async () => {
    const project = await buildPackage('size-budget');
    vite = await buildViteConsumer(project, ['satang'], 'app');
    esbuild = await buildConsumer(packageEntry(project), 'satang');
    checks = checkBudgets(await buildCheckout(), vite);
    // Every size in the log, passing or not, so a failure shows the whole picture.
    const esbuildLine = `import 'satang', esbuild (reported, not budgeted): ${kb(esbuild.initialTotal.brotli)} brotli (${esbuild.initialTotal.brotli} B) in ${esbuild.initial.length} requests before the first render`;
    console.log(`size budgets (brotli):\n${[...checks.map(describeBudget), esbuildLine].map((line) => `  ${line}`).join('\n')}`);
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

  it(`keeps \`import 'satang'\`, as a Vite app ships it, within ${BUDGETS.defaultEntryConsumerBrotli / 1024} KB brotli before the first render`, () => {
    const c = check('consumer');
    expect(c.brotli, `${describeBudget(c)}: ${vite.initial.map((f) => `${f.fileName} ${f.brotli} B`).join(', ')}`).toBeLessThanOrEqual(BUDGETS.defaultEntryConsumerBrotli);
  });

  it('keeps the QR renderer, the QR element and the other methods out of what `import \'satang\'` loads first, with Vite and esbuild', () => {
    for (const first of [vite.initial.flatMap((f) => f.modules.map((m) => m.id)), esbuild.initial.flatMap((f) => f.modules.map((m) => m.id))]) {
      for (const lazy of ['qr/index.js', 'qr/decode.js', 'satang-qr-payment/', 'satang-checkout/panels.js', 'satang-checkout/payment-flow.js', 'marks/provider-marks.js', 'marks/card-brand-marks.js']) {
        expect(first.filter((id) => id.includes(lazy)), lazy).toEqual([]);
      }
      expect(first.some((id) => id.includes('satang-checkout/satang-checkout.js')), 'the checkout itself').toBe(true);
    }
  });
});
