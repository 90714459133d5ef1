import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, measureFirstRender, type FirstRenderResult } from './browser.js';
import { buildCheckout, buildEntry, buildPackage, buildViteConsumer, kb, REPO_ROOT, writeFiles } from './sizes.js';
import { startPageServer } from './page-server.js';

/**
 * Only the first render of `npm run bench`: the same builds, pages and measurement
 * (`measureFirstRender`), repeated, for trying a change in a minute rather than three. Nothing is
 * written to BENCHMARKS.md.
 *
 *   npx tsx test/bench/first-render.ts [runs per page, 25] [repeats, 3]
 *
 * Each repeat prints the ratios of one run: compare ratios from the same run, never medians of
 * two runs, since the machine may be busy with something else.
 */

const [runs = 25, repeats = 3] = process.argv.slice(2).map(Number);

function line(label: string, r: FirstRenderResult): string {
  const ms = (n: number) => n.toFixed(1);
  return (
    `${label}: ${ms(r.consumerReady.median)} / ${ms(r.consumerFloorReady.median)} ms = ${r.consumerReadyRatio.toFixed(2)}x` +
    ` (90% interval ${r.consumerReadyRatioInterval.map((v) => v.toFixed(2)).join('-')}x)` +
    ` (fastest ${ms(r.consumerReady.min)} / ${ms(r.consumerFloorReady.min)} = ${(r.consumerReady.min / r.consumerFloorReady.min).toFixed(2)}x)` +
    ` | script tag satang.js ${r.readyRatio.toFixed(2)}x | satang-checkout.js ${r.entryReadyRatio.toFixed(2)}x`
  );
}

const checkout = await buildCheckout();
const floor = await buildEntry('test/bench/baselines/lit-floor.ts', 'lit-floor');
const project = await buildPackage('first-render-package');
const consumer = await buildViteConsumer(project, ['satang'], 'app');
const consumerFloor = await buildViteConsumer(project, [join(REPO_ROOT, 'test/bench/baselines/lit-floor.ts')], 'floor', '/consumer-floor/');
const files = consumer.initial.map((f) => `${f.fileName} ${kb(f.minified)} min, ${f.brotli} B br`);
console.log(`import 'satang' before the first render: ${files.join(' + ')} = ${kb(consumer.initialTotal.brotli)} br`);

const www = await mkdtemp(join(tmpdir(), 'satang-first-render-'));
await writeFiles(www, checkout.files);
await writeFiles(www, floor.files);
await writeFiles(join(www, 'consumer'), consumer.chunks);
await writeFiles(join(www, 'consumer-floor'), consumerFloor.chunks);
const pages = await startPageServer(www);
const browser = await launchChromium();
try {
  for (let i = 0; i < repeats; i += 1) {
    console.log(line(`run ${i + 1}: import 'satang' / floor, both bundled`, await measureFirstRender(browser, pages.origin, runs)));
  }
} finally {
  await browser.close();
  await pages.close();
  await rm(www, { recursive: true, force: true });
}
