import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
// Only the checkout entry: <satang-qr-payment> is not defined until a QR may be needed.
import '../../src/elements/checkout.js';
import { SANDBOX_DEFAULTS } from '../../src/sandbox/defaults.js';
import { withPageOrderToken } from '../support/page-tokens.js';

describe('the satang/checkout entry', () => {
  it('fetches the QR element only once PromptPay is chosen, and shows the QR when the charge answers with it', async () => {
    expect(customElements.get('satang-qr-payment')).toBeUndefined();
    const element = document.createElement('satang-checkout');
    const attributes = {
      'merchant-id': SANDBOX_DEFAULTS.merchantId,
      'publishable-key': SANDBOX_DEFAULTS.publishableKey,
      'service-url': location.origin,
      endpoint: '/api/checkout',
      amount: '25000',
      'order-reference': `order-25000-${crypto.randomUUID()}`,
      locale: 'en',
    };
    for (const [name, value] of Object.entries(await withPageOrderToken(attributes))) element.setAttribute(name, value);
    document.body.append(element);
    await element.updateComplete;
    expect(customElements.get('satang-qr-payment')).toBeUndefined();

    const promptPay = [...element.shadowRoot!.querySelectorAll<HTMLElement>('[part="method"]')].find((m) => m.textContent.includes('PromptPay'))!;
    await userEvent.click(promptPay);
    await customElements.whenDefined('satang-qr-payment');

    const shown = new Promise<Event>((resolve) => element.addEventListener('satang-action', resolve, { once: true }));
    await userEvent.click(element.shadowRoot!.querySelector<HTMLButtonElement>('[part="pay-button"]')!);
    await shown;
    await element.updateComplete;
    const qr = element.shadowRoot!.querySelector('satang-qr-payment')!;
    await qr.updateComplete;
    await expect.poll(() => qr.shadowRoot?.querySelector('svg[role="img"]')).not.toBeNull();
    element.remove();
  });
});
