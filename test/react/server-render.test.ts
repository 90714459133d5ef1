import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';

/** The browser globals a module must not reach while it is imported or rendered on a server. */
const BROWSER_GLOBALS = ['window', 'document', 'customElements', 'HTMLElement', 'Element', 'Node', 'localStorage', 'sessionStorage', 'location'];

/** Makes every browser global throw when read, and answers the names that were read. */
function trapBrowserGlobals(): string[] {
  const touched: string[] = [];
  for (const name of BROWSER_GLOBALS) {
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get() {
        touched.push(name);
        throw new ReferenceError(`${name} is not defined on a server`);
      },
    });
  }
  return touched;
}

function releaseBrowserGlobals(): void {
  for (const name of BROWSER_GLOBALS) Reflect.deleteProperty(globalThis, name);
}

describe('satang/react on a server', () => {
  it('imports and renders the three wrappers without touching window, document, customElements or HTMLElement', async () => {
    const touched = trapBrowserGlobals();
    try {
      vi.resetModules();
      const { SatangCardForm, SatangCheckout, SatangQrPayment } = await import('../../src/react/index.js');
      const html = renderToString(
        createElement(
          'main',
          null,
          createElement(SatangCheckout, { merchantId: 'mch_1', amount: 12_900, orderReference: 'order-1', className: 'checkout', onSatangSuccess: () => undefined }),
          createElement(SatangCardForm, { locale: 'th', id: 'card' }),
          createElement(SatangQrPayment, { statusToken: 'st_secret', chargeId: 'ch_1' }),
        ),
      );
      expect(touched).toEqual([]);
      // Properties are set in the browser, on the element: none reaches the HTML, a status token least of all.
      expect(html).toBe('<main><satang-checkout class="checkout"></satang-checkout><satang-card-form id="card"></satang-card-form><satang-qr-payment></satang-qr-payment></main>');
    } finally {
      releaseBrowserGlobals();
    }
  });
});
