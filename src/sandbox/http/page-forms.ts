import { PAGE_HEADERS } from '../hosted-pages.js';
import { readText } from './read-body.js';
import { SandboxError } from './sandbox-error.js';

/** A hosted page answer with the pages' headers (CSP, no caching). */
export function htmlResponse(status: number, html: string): Response {
  return new Response(html, { status, headers: PAGE_HEADERS });
}

/** A 303 to `location`, as a hosted page answers a form post that moves the shopper on. */
export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}

/** Refuses a request whose method is not one of `methods` with 405 and an Allow header. */
export function allowOnly(request: Request, methods: readonly string[]): void {
  if (!methods.includes(request.method)) {
    throw new SandboxError('METHOD_NOT_ALLOWED_ERROR', `${request.method} is not allowed here; use ${methods.join(' or ')}`, { allow: methods.join(', ') });
  }
}

/** The fields of a hosted page's form post; anything but a urlencoded form is 415. */
export async function readFormPost(request: Request, maxBytes: number): Promise<URLSearchParams> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type.trim())) {
    throw new SandboxError('UNSUPPORTED_MEDIA_TYPE_ERROR', 'hosted pages take form posts (application/x-www-form-urlencoded)');
  }
  return new URLSearchParams(await readText(request, maxBytes));
}

/** `decodeURIComponent`, or the text as it is when it is not valid percent-encoding. */
export function decodePathSegment(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
