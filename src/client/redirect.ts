import { isHttpsOrLoopback } from '../core/url.js';

/**
 * The URL to send the shopper to, or `null` when it is not safe: only https, or http on this
 * machine (the local sandbox). `javascript:`, `data:`, relative and protocol-relative tricks are
 * all refused, since an attacker-controlled redirect is the easiest phishing there is.
 */
export function safeRedirectUrl(candidate: unknown): URL | null {
  if (typeof candidate !== 'string' || !/^https?:\/\//i.test(candidate.trim())) return null;
  try {
    const url = new URL(candidate.trim());
    return isHttpsOrLoopback(url) && url.username === '' && url.password === '' ? url : null;
  } catch {
    return null;
  }
}
