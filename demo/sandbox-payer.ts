import type { ServiceClient } from '../src/server/index.js';
import { SANDBOX_DEFAULTS } from '../src/sandbox/defaults.js';

/** Where the demo's pages link a shopper who wants to pay their QR code in the sandbox. */
export const SANDBOX_PAYER_PATH = '/api/sandbox-payer';

/**
 * `GET /api/sandbox-payer/{orderReference}[?lang=th|en]`: sends the visitor to the sandbox's payer page of the
 * order's newest pending QR charge, so a person trying the demo pays the QR on screen without a
 * phone. The page's address is the charge's payer link, which the sandbox hands only to the
 * charge's merchant (`GET /sandbox/v1/charges/{id}/payer-link` under its API key; sandbox-only,
 * the live service has no such page), so the shop's server asks for it. An order without a
 * pending QR charge goes to the payer simulator, where a QR's payload can be pasted.
 */
export function createSandboxPayerRedirect(client: ServiceClient, sandboxUrl: string) {
  const authorization = `Basic ${btoa(`${SANDBOX_DEFAULTS.merchantId}:${SANDBOX_DEFAULTS.apiKey}`)}`;
  const simulatorPath = `${sandboxUrl}/sandbox/pages/promptpay`;
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const reference = decodeURIComponent(url.pathname.split('/').at(-1) ?? '');
    // The page's language goes along, so the Thai footer opens the payer page in Thai.
    const lang = url.searchParams.get('lang');
    const language = lang === 'th' || lang === 'en' ? `?lang=${lang}` : '';
    const simulator = `${simulatorPath}${language}`;
    if (request.method !== 'GET' || reference === '') return seeOther(simulator);
    const { data } = await client.charges.list({ referenceId: reference, limit: 20 });
    // Newest first: the QR the shopper sees now.
    const pending = data.find((charge) => charge.status === 'PENDING' && charge.paymentMethod.paymentMethodType === 'QR_PROMPT_PAY');
    if (!pending) return seeOther(simulator);
    const answer = await fetch(`${sandboxUrl}/sandbox/v1/charges/${encodeURIComponent(pending.chargeId)}/payer-link`, {
      headers: { authorization },
      signal: AbortSignal.timeout(5000),
    });
    if (!answer.ok) return seeOther(simulator);
    const { payerUrl } = (await answer.json()) as { payerUrl: string };
    return seeOther(`${payerUrl}${language}`);
  };
}

function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}
