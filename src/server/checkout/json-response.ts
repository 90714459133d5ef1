import type { HttpAnswer } from '../../core/http-call.js';

/** What every answer of the checkout endpoint carries: never cached, never sniffed or framed. */
const SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'content-type': 'application/json; charset=utf-8',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

const encoder = new TextEncoder();

/**
 * A JSON answer of the checkout endpoint, with its security headers and its length (so it goes out
 * in one write, and through any host without chunked encoding).
 */
export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): HttpAnswer {
  const bytes = encoder.encode(JSON.stringify(body));
  return { status, body: bytes, headers: { ...SECURITY_HEADERS, 'content-length': String(bytes.length), ...headers } };
}
