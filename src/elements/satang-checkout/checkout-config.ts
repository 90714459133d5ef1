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
  /** Signed by the shop's server for the order (`handler.orderToken(orderReference)`): the server charges nothing without it. */
  orderToken: string;
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
export function offeredTypes(config: CheckoutConfig): readonly CheckoutPaymentMethodType[] {
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

/**
 * What is wrong with the configuration, or undefined when the attributes can work: the attribute
 * at fault and what it was set to. `config-messages.ts` (fetched only then) says it in words for
 * the page's developer.
 */
export type ConfigProblem = readonly [problem: string, value?: string];

export function configProblem(config: CheckoutConfig): ConfigProblem | undefined {
  const { intent, amount, publishableKey } = config;
  const parsed = methodsOf(config);
  if ('unknown' in parsed) return ['methods', parsed.unknown];
  if (intent !== 'charge' && intent !== 'authorize') return ['intent', intent];
  if (intent === 'authorize' && parsed.types.some((t) => t !== 'CARD_TOKEN')) return ['authorize'];
  if (!config.endpoint) return ['endpoint'];
  if (!config.orderReference) return ['order-reference'];
  if (!config.orderToken) return ['order-token'];
  if (!Number.isInteger(amount) || amount < MIN_CHARGE_AMOUNT_SATANG) return ['amount'];
  if (config.currency !== CURRENCY_THB) return ['currency'];
  if (!returnUrlOf(config)) return ['return-url', config.returnUrl];
  if (parsed.types.some(isCardType)) {
    if (!config.merchantId) return ['merchant-id'];
    if (!publishableKey) return ['publishable-key'];
    if (publishableKey.startsWith('sk_')) return ['secret-key'];
    let url: URL | undefined;
    try {
      url = new URL(config.serviceUrl);
    } catch {
      return ['service-url'];
    }
    if (!isHttpsOrLoopback(url)) return ['https'];
  }
  return undefined;
}
