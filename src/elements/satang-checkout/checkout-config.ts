import { CURRENCY_THB, MIN_CHARGE_AMOUNT_SATANG } from '../../core/constants.js';
import type { CheckoutPaymentMethodType } from '../../core/schemas/checkout.js';
import { isHttpsOrLoopback } from '../../core/url.js';
import { DEFAULT_METHODS, isCardType, parseMethods } from './payment-methods.js';

/** What `<satang-checkout>`'s attributes say about the payment, as its properties hold them. */
export interface CheckoutConfig {
  merchantId: string;
  publishableKey: string;
  serviceUrl: string;
  endpoint: string;
  amount: number;
  currency: string;
  orderReference: string;
  methods: string;
  returnUrl: string;
  /** As set: charge or authorize, but an attribute may hold anything, which the configuration check refuses. */
  intent: string;
}

/** The methods attribute as it applies: an authorization is by card, so `methods` left at its default means card then. */
function methodsOf(config: CheckoutConfig) {
  return parseMethods(config.intent === 'authorize' && config.methods === DEFAULT_METHODS ? 'card' : config.methods);
}

/** The payment method types offered, in the order to show them; none when `methods` names an unknown one. */
export function offeredTypes(config: CheckoutConfig): CheckoutPaymentMethodType[] {
  const parsed = methodsOf(config);
  return 'types' in parsed ? parsed.types : [];
}

/** `return-url` resolved against the page (a path such as `/checkout/return` is fine), or this page. */
export function returnUrlOf(config: CheckoutConfig): URL | undefined {
  try {
    const url = new URL(config.returnUrl || location.href, document.baseURI);
    url.hash = '';
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The configuration problem, in words for the page's developer, or undefined when the attributes can work. */
export function configError(config: CheckoutConfig): string | undefined {
  const { intent, amount, publishableKey } = config;
  const parsed = methodsOf(config);
  if ('unknown' in parsed) return `methods: unknown method "${parsed.unknown}"`;
  if (intent !== 'charge' && intent !== 'authorize') return `intent must be charge or authorize, got "${intent}"`;
  if (intent === 'authorize' && parsed.types.some((t) => t !== 'CARD_TOKEN')) return 'intent="authorize" takes card payments only: set methods="card"';
  if (!config.endpoint) return 'endpoint is required (the URL of your satang/server checkout handler)';
  if (!config.orderReference) return 'order-reference is required';
  if (!Number.isInteger(amount) || amount < MIN_CHARGE_AMOUNT_SATANG) return 'amount must be a whole number of satang, at least 100';
  if (config.currency !== CURRENCY_THB) return 'currency must be THB';
  if (!returnUrlOf(config)) return `return-url must be an http(s) URL or a path on this site, got "${config.returnUrl}"`;
  if (parsed.types.some(isCardType)) {
    if (!config.merchantId) return 'merchant-id is required for card payments';
    if (!publishableKey) return 'publishable-key is required for card payments';
    if (publishableKey.startsWith('sk_')) return 'publishable-key looks like a secret API key: never put it in a page';
    let url: URL | undefined;
    try {
      url = new URL(config.serviceUrl);
    } catch {
      return 'service-url is required for card payments (the payment service base URL)';
    }
    if (!isHttpsOrLoopback(url)) return 'service-url must use https';
  }
  return undefined;
}
