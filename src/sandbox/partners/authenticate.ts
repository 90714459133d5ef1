import type { ServiceHeaders } from '../../core/constants.js';
import type { SandboxMerchant } from './sandbox-merchant.js';
import { SandboxError } from '../http/sandbox-error.js';

/** A partner whose key may act for the merchants under it. */
export interface SandboxPartner {
  partnerId: string;
  apiKey: string;
}

/** Which key a path takes: the API key (or a partner key) on `/api`, the publishable key on `/client`. */
export type KeyArea = 'api' | 'client';

/** Compares two strings without an early exit, so timing does not reveal how much of a key matched. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (const [i, byte] of x.entries()) diff |= byte ^ (y[i % Math.max(y.length, 1)] ?? 0);
  return diff === 0;
}

function invalid(message: string): SandboxError {
  return new SandboxError('INVALID_CREDENTIALS_ERROR', message);
}

/**
 * Authenticates a request as the contract says: HTTP Basic with the merchant id as user name and
 * the key of the right type as password; a partner key also needs the partner id header.
 */
export function authenticate(
  request: Request,
  area: KeyArea,
  merchants: ReadonlyMap<string, SandboxMerchant>,
  partners: ReadonlyMap<string, SandboxPartner>,
  headers: ServiceHeaders,
): SandboxMerchant {
  const header = request.headers.get('authorization');
  if (!header) throw invalid('authentication is required: send Authorization: Basic base64(merchantId:key)');
  const match = /^Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
  if (!match) throw invalid('Authorization must be Basic base64(merchantId:key)');
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(match[1] ?? ''), (c) => c.charCodeAt(0)));
  } catch {
    throw invalid('Authorization must be Basic base64(merchantId:key)');
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalid('Authorization must be Basic base64(merchantId:key)');
  const merchantId = decoded.slice(0, colon);
  const key = decoded.slice(colon + 1);
  const merchant = merchants.get(merchantId);
  if (!merchant) throw invalid('invalid credentials');

  if (area === 'client') {
    if (constantTimeEqual(key, merchant.publishableKey)) return merchant;
    throw invalid('invalid credentials: /client endpoints take the publishable key');
  }
  if (constantTimeEqual(key, merchant.apiKey)) return merchant;
  if (constantTimeEqual(key, merchant.publishableKey)) {
    throw invalid('invalid credentials: the publishable key only works on /client endpoints; /api endpoints take the API key');
  }
  const partnerId = request.headers.get(headers.partnerId);
  if (partnerId === null) {
    for (const partner of partners.values()) {
      if (constantTimeEqual(key, partner.apiKey)) throw invalid(`a partner key needs the ${headers.partnerId} header`);
    }
    throw invalid('invalid credentials');
  }
  const partner = partners.get(partnerId);
  if (!partner || !constantTimeEqual(key, partner.apiKey)) throw invalid('invalid credentials');
  if (merchant.partnerId !== partner.partnerId) {
    throw new SandboxError('NO_PERMISSION_ERROR', `merchant ${merchantId} is not under partner ${partnerId}`);
  }
  return merchant;
}

/**
 * The merchant a request's key authenticates, for the key its path takes (the publishable key on
 * `/client`, the API or a partner key elsewhere); undefined without a key or for one that fails.
 * For deciding whom a request belongs to before it is routed (fault rules), never for letting it in.
 */
export function authenticatedMerchantId(
  request: Request,
  merchants: ReadonlyMap<string, SandboxMerchant>,
  partners: ReadonlyMap<string, SandboxPartner>,
  headers: ServiceHeaders,
): string | undefined {
  if (!request.headers.has('authorization')) return undefined;
  const area: KeyArea = new URL(request.url).pathname.startsWith('/client/') ? 'client' : 'api';
  try {
    return authenticate(request, area, merchants, partners, headers).merchantId;
  } catch {
    return undefined;
  }
}
