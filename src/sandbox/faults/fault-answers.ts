import { readBodyText } from '../../core/request-body.js';
import { serviceErrorBody } from '../../core/service-error.js';
import { jsonResponse } from '../http/sandbox-error.js';

/** Largest body read to match a rule's `referenceId`. */
const MAX_MATCHED_BODY_BYTES = 64 * 1024;

/**
 * Marks the rejection of a `reset` fault, so the socket code can drop the connection. In process
 * it reads like the TypeError a Fetch implementation rejects with when a connection is reset.
 */
export class SandboxConnectionReset extends TypeError {
  constructor() {
    super('fetch failed', { cause: Object.assign(new Error('read ECONNRESET (sandbox fault)'), { code: 'ECONNRESET' }) });
    this.name = 'TypeError';
  }
}

/** A body stream's error when a `truncated-body` fault cuts it. */
export class SandboxTruncatedBody extends TypeError {
  constructor() {
    super('terminated', { cause: Object.assign(new Error('other side closed (sandbox fault)'), { code: 'UND_ERR_SOCKET' }) });
    this.name = 'TypeError';
  }
}

const GATEWAY_PAGES: Record<number, string> = {
  502: 'Bad Gateway',
  504: 'Gateway Time-out',
};

/** The `referenceId` of a JSON request body, read from a copy so the request keeps its body. */
export async function bodyReferenceId(request: Request): Promise<string | undefined> {
  if (request.body === null) return undefined;
  try {
    const text = await readBodyText(request.clone(), MAX_MATCHED_BODY_BYTES);
    const value = (JSON.parse(text) as { referenceId?: unknown } | null)?.referenceId;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

export function statusAnswer(status: number): Response {
  const gateway = GATEWAY_PAGES[status];
  if (gateway) {
    const page = `<html>\r\n<head><title>${status} ${gateway}</title></head>\r\n<body>\r\n<center><h1>${status} ${gateway}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
    return new Response(page, { status, headers: { 'content-type': 'text/html', server: 'nginx' } });
  }
  const message = status === 503 ? 'the service is temporarily unavailable (sandbox fault)' : 'the service failed to answer this request (sandbox fault)';
  return jsonResponse(status, { ...serviceErrorBody('INTERNAL_SERVER_ERROR', message), code: status });
}

/** The real answer's headers with its full Content-Length, then half its body, then an error. */
export async function truncated(real: Response): Promise<Response> {
  const bytes = new Uint8Array(await real.arrayBuffer());
  const half = bytes.slice(0, Math.floor(bytes.length / 2));
  const headers = new Headers(real.headers);
  headers.set('content-length', String(Math.max(bytes.length, 1)));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (half.length > 0) controller.enqueue(half);
    },
    pull(controller) {
      controller.error(new SandboxTruncatedBody());
    },
  });
  return new Response(body, { status: real.status === 204 ? 200 : real.status, headers });
}

const CAPTIVE_PORTAL_PAGE =
  '<!doctype html><html><head><title>Sign in to the network</title></head><body><h1>Welcome</h1><p>Please accept the terms of use to continue.</p><form method="post"><button>Accept</button></form></body></html>';

/** A 200 HTML page where JSON was expected, as a captive portal or a misrouted proxy answers. */
export function captivePortalAnswer(): Response {
  return new Response(CAPTIVE_PORTAL_PAGE, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
}
