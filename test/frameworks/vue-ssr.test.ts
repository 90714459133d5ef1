import { describe, expect, it } from 'vitest';
import { createSSRApp } from 'vue';
import { renderToString } from 'vue/server-renderer';
import { isSatangElement } from '../../src/frameworks/vue.js';

/**
 * The elements in a Vue 3 app rendered on a server, as Nuxt renders its pages: the page imports
 * the elements (`import 'satang'`) in the server process, and Vue writes `<satang-checkout>` into
 * the HTML with its attributes; the browser defines the element when the script arrives. The Vue
 * shop of test/build/framework-shops.test.ts pays in the browser; this is its server half.
 */

describe('the elements in a Vue app rendered on a server', () => {
  it('import in the server process, and render as a tag with its attributes, Vue warning of nothing', async () => {
    await import('../../src/elements/index.js');
    const warnings: string[] = [];
    const app = createSSRApp({
      template: `<main><h1>Baan Craft</h1><satang-checkout merchant-id="mch_sandbox" :amount="amount" order-reference="order-1001" order-token="ot_1" endpoint="/api/checkout" locale="th" @satang-success="paid"></satang-checkout></main>`,
      data: () => ({ amount: 12_900, chargeId: '' }),
      methods: {
        paid(event: Event & { chargeId: string }) {
          (this as { chargeId: string }).chargeId = event.chargeId;
        },
      },
    });
    app.config.compilerOptions.isCustomElement = isSatangElement;
    app.config.warnHandler = (message) => warnings.push(message);
    const html = await renderToString(app);
    expect(html).toBe(
      '<main><h1>Baan Craft</h1><satang-checkout merchant-id="mch_sandbox" amount="12900" order-reference="order-1001" order-token="ot_1" endpoint="/api/checkout" locale="th"></satang-checkout></main>',
    );
    expect(warnings).toEqual([]);
  });
});
