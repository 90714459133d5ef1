/**
 * What is wrong with a `<satang-checkout>`'s attributes, in words for the page's developer (so in
 * English, as the console is). Fetched only when something is wrong.
 */
import type { ConfigProblem } from './checkout-config.js';

const MESSAGES: Readonly<Record<string, string>> = {
  methods: 'methods: unknown method "{value}"',
  intent: 'intent must be charge or authorize, got "{value}"',
  authorize: 'intent="authorize" takes card payments only: set methods="card"',
  endpoint: 'endpoint is required (the URL of your satang/server checkout handler)',
  'order-reference': 'order-reference is required',
  'order-token': "order-token is required: render your checkout handler's orderToken(orderReference) into it",
  amount: 'amount must be a whole number of satang, at least 100',
  currency: 'currency must be THB',
  'return-url': 'return-url must be an http(s) URL or a path on this site, got "{value}"',
  'merchant-id': 'merchant-id is required for card payments',
  'publishable-key': 'publishable-key is required for card payments',
  'secret-key': 'publishable-key looks like a secret API key: never put it in a page',
  'service-url': 'service-url is required for card payments (the payment service base URL)',
  https: 'service-url must use https',
};

/** The problem as a sentence. */
export function describeConfigProblem([problem, value = '']: ConfigProblem): string {
  return (MESSAGES[problem] ?? problem).replace('{value}', value);
}
