/**
 * Webhook signatures as the payment service computes them:
 * `<prefix>Signature = base64(HMAC-SHA256(key = base64-decode(webhook key), message = raw body bytes))`,
 * the prefix being the service's header prefix (`X-Beam-` live, see `serviceHeaders`).
 * WebCrypto only, so the same code signs in the sandbox, verifies on a merchant's Node server and
 * runs in edge runtimes. There is no timestamp or nonce in the scheme: deduplicating replays is
 * the receiver's job.
 */

import { base64Decode, base64Encode } from './base64.js';
import { serviceHeaders, type ServiceHeaders } from './constants.js';

/** Length of an HMAC-SHA256 signature; a decoded signature of any other length is refused unchecked. */
export const WEBHOOK_SIGNATURE_LENGTH_BYTES = 32;

/** Content type of every webhook delivery. */
export const WEBHOOK_CONTENT_TYPE = 'application/json';

const TEXT_ENCODER = new TextEncoder();

/**
 * Decodes a base64 webhook key, throwing a TypeError that says what to configure when it is empty
 * or not base64. Call it when reading configuration so a wrong key fails at start-up rather than
 * on the first webhook.
 */
export function decodeWebhookKey(webhookKeyBase64: string): Uint8Array<ArrayBuffer> {
  let raw: Uint8Array<ArrayBuffer> | undefined;
  if (typeof webhookKeyBase64 === 'string') {
    try {
      raw = base64Decode(webhookKeyBase64);
    } catch {
      raw = undefined;
    }
  }
  if (raw === undefined || raw.length === 0) {
    throw new TypeError(
      'Invalid webhook key: set webhookKeyBase64 to the webhook key of the environment exactly as issued, ' +
        'non-empty standard base64 with "=" padding (no whitespace, no URL-safe characters)',
    );
  }
  return raw;
}

/**
 * Computes the signature header value for a webhook body. The sandbox uses it to sign what it
 * sends; merchants can use it to build deliveries for their own tests. Sign the exact bytes that
 * go on the wire: re-serialising parsed JSON changes them.
 */
export async function signWebhookPayload(body: string | Uint8Array, webhookKeyBase64: string): Promise<string> {
  const key = await importWebhookKey(webhookKeyBase64);
  const signature = await crypto.subtle.sign('HMAC', key, bodyBytes(body));
  return base64Encode(new Uint8Array(signature));
}

/**
 * Tells whether a received webhook was signed with the webhook key. Call it on the raw request
 * body before parsing it, with the value of the signature header. A missing, empty, malformed or
 * wrong-length signature is `false`, never an exception; only a misconfigured key throws (a
 * TypeError), so a configuration mistake is not mistaken for a forged request. The comparison is
 * WebCrypto's HMAC verify, which takes the same time wherever the bytes differ.
 */
export async function verifyWebhookSignature(
  body: string | Uint8Array,
  signature: string | null | undefined,
  webhookKeyBase64: string,
): Promise<boolean> {
  // The key and body are checked before the signature so a misconfiguration surfaces even when
  // the request carries no signature at all.
  const key = await importWebhookKey(webhookKeyBase64);
  const data = bodyBytes(body);
  if (typeof signature !== 'string' || signature.length === 0) return false;
  let signatureBytes: Uint8Array<ArrayBuffer>;
  try {
    signatureBytes = base64Decode(signature);
  } catch {
    return false;
  }
  if (signatureBytes.length !== WEBHOOK_SIGNATURE_LENGTH_BYTES) return false;
  return crypto.subtle.verify('HMAC', key, signatureBytes, data);
}

/**
 * The headers of a webhook delivery (content type, event name, signature), given a signature
 * already computed. The sandbox's dispatcher sends these so a delivery and
 * {@link generateTestWebhookHeaders} cannot drift apart.
 */
export function buildWebhookHeaders(eventName: string, signature: string, headers: ServiceHeaders = serviceHeaders()): Record<string, string> {
  return {
    'Content-Type': WEBHOOK_CONTENT_TYPE,
    [headers.event]: eventName,
    [headers.signature]: signature,
  };
}

/**
 * The headers a real delivery of `body` as `eventName` carries, for merchants testing their own
 * webhook receivers: POST `body` with these headers and the receiver should accept it. The names
 * carry `options.headerPrefix` (the live service's `X-Beam-` by default).
 */
export async function generateTestWebhookHeaders(
  eventName: string,
  body: string,
  webhookKeyBase64: string,
  options: { headerPrefix?: string } = {},
): Promise<Record<string, string>> {
  const headers = serviceHeaders(options.headerPrefix);
  return buildWebhookHeaders(eventName, await signWebhookPayload(body, webhookKeyBase64), headers);
}

async function importWebhookKey(webhookKeyBase64: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', decodeWebhookKey(webhookKeyBase64), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
}

function bodyBytes(body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return TEXT_ENCODER.encode(body);
  // A copy: WebCrypto refuses views over shared memory, and the caller's buffer may change later.
  if (body instanceof Uint8Array) return new Uint8Array(body);
  throw new TypeError('webhook body must be the raw request body as a string or Uint8Array, not parsed JSON');
}
