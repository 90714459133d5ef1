import { SANDBOX_DEFAULTS } from '../../src/sandbox/defaults.js';
import { OrderTokens } from '../../src/server/checkout/order-tokens.js';

/**
 * Order tokens as a shop charging the sandbox's merchant with its API key, and no
 * `statusTokenSecret` of its own, renders them into its checkout pages
 * (`handler.orderToken(orderReference)`). For the tests and benches whose pages or shoppers are not
 * served by the shop's own code: the browser tests' mounted elements, the bench's load and its pages.
 */
const tokens = new OrderTokens(SANDBOX_DEFAULTS.apiKey, SANDBOX_DEFAULTS.merchantId);

/** The order token of `orderReference`, as the shop's page would carry it. */
export function pageOrderToken(orderReference: string): Promise<string> {
  return tokens.sign(orderReference);
}

/** `attributes` with the order token of their `order-reference`, unless they name an `order-token` themselves. */
export async function withPageOrderToken(attributes: Record<string, string>): Promise<Record<string, string>> {
  const reference = attributes['order-reference'];
  if (reference === undefined || reference === '' || 'order-token' in attributes) return attributes;
  return { ...attributes, 'order-token': await pageOrderToken(reference) };
}

/**
 * The attributes of a checkout for a new order of `amount` on a browser test's page (the sandbox
 * behind `/api/checkout` and as the service), its order token signed, `overrides` applied first.
 */
export function pageCheckoutAttributes(amount: number, overrides: Record<string, string> = {}): Promise<Record<string, string>> {
  return withPageOrderToken({
    'merchant-id': SANDBOX_DEFAULTS.merchantId,
    'publishable-key': SANDBOX_DEFAULTS.publishableKey,
    'service-url': location.origin,
    endpoint: '/api/checkout',
    amount: String(amount),
    'order-reference': `order-${amount}-${crypto.randomUUID()}`,
    locale: 'en',
    ...overrides,
  });
}
