import type { SandboxPayments } from '../charges/sandbox-payments.js';
import { pageResponse, renderErrorPage, SANDBOX_PAGES_PATH, seeOther, STYLESHEET_HREF } from '../http/page-layout.js';
import { readFormPost } from '../http/read-body.js';
import { apiRoute, pageRoute, type PageArea, type SandboxRoute } from '../http/route.js';
import { jsonResponse, SandboxError } from '../http/sandbox-error.js';
import { SANDBOX_SLIPS_PAGE_PATH, slipPagePath, type SandboxQrSlips, type SlipRecord } from './qr-slips.js';
import { renderSlipPage } from './slip-page.js';

const SLIP_FORMATS = ['json', 'raw', 'png'];

function errorPage(status: number, title: string, message: string): Response {
  return pageResponse(status, renderErrorPage({ stylesheetHref: STYLESHEET_HREF, title, message }));
}

const slipNotFound = () => errorPage(404, 'Slip not found', 'There is no transfer slip at this address.');

/** The slip pages: an address under them that names no slip is a slip not found; each is GET only. */
const SLIP_PAGES_AREA: PageArea = { prefix: SANDBOX_SLIPS_PAGE_PATH, notFound: slipNotFound, methods: ['GET'] };

function pngResponse(png: Uint8Array, download: boolean, slip: SlipRecord): Response {
  const headers: Record<string, string> = { 'content-type': 'image/png', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
  if (download) headers['content-disposition'] = `attachment; filename="slip-${slip.transactionRef}.png"`;
  return new Response(png as Uint8Array<ArrayBuffer>, { headers });
}

/**
 * Slips: `POST /api/v1/charges/verify-qr-slip` (JSON or a multipart picture), the sandbox's
 * slip endpoint for tests, and the slip pages — issuing one from the PromptPay payer page, showing
 * one, and its picture (`/{ref}.png`, `?download` to save it).
 */
export function slipRoutes(slips: SandboxQrSlips, payments: SandboxPayments, limits: { maxBodyBytes: number; maxUploadBytes: number }): SandboxRoute[] {
  const { maxBodyBytes, maxUploadBytes } = limits;
  return [
    apiRoute('POST', '/api/v1/charges/verify-qr-slip', ({ merchant, body }) => jsonResponse(200, slips.verify(merchant, body)), {
      maxBodyBytes: maxUploadBytes,
      readBody: (request, maxBytes) => slips.readVerifyBody(request, maxBytes),
    }),
    // The slip of the charge's transfer, made (without completing the charge) on first asking, as
    // the payer page's "get a slip" does.
    apiRoute('GET', '/sandbox/v1/charges/:chargeId/slip', async ({ merchant, params, url, origin }) => {
      const format = url.searchParams.get('format');
      if (format !== null && !SLIP_FORMATS.includes(format)) throw SandboxError.field('format', 'must be json, raw or png');
      const record = payments.store.charges.get(params.chargeId);
      if (record?.charge.merchantId !== merchant.merchantId) throw new SandboxError('NOT_FOUND_ERROR', `no charge with id ${params.chargeId}`);
      const slip = slips.issue(record, merchant);
      if (format === 'raw') return new Response(slip.raw, { headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
      if (format === 'png') return pngResponse(await slips.png(slip), false, slip);
      return jsonResponse(200, await slips.describe(slip, origin));
    }),

    pageRoute(SLIP_PAGES_AREA, 'POST', SANDBOX_SLIPS_PAGE_PATH, async ({ request }) => {
      const form = await readFormPost(request, maxBodyBytes);
      const rawData = (form.get('rawData') ?? '').trim();
      if (rawData === '') return errorPage(400, 'No QR code given', 'Paste the QR code’s text (its rawData) on the PromptPay payer page first.');
      const record = payments.findChargeByQrPayload(rawData);
      if (!record) return errorPage(404, 'Charge not found', 'No charge matches this QR code. Check that you copied all of it.');
      let slip: SlipRecord;
      try {
        slip = slips.issue(record, undefined);
      } catch (error) {
        if (!(error instanceof SandboxError)) throw error;
        return errorPage(error.status, 'No transfer made', `${error.message}.`);
      }
      return seeOther(slipPagePath(slip));
    }),
    pageRoute(SLIP_PAGES_AREA, 'GET', `${SANDBOX_SLIPS_PAGE_PATH}/:file`, async ({ params, url }) => {
      const file = params.file;
      const isPng = file.endsWith('.png');
      const slip = slips.find(isPng ? file.slice(0, -'.png'.length) : file);
      if (!slip) return slipNotFound();
      if (isPng) return pngResponse(await slips.png(slip), url.searchParams.has('download'), slip);
      const imageHref = `${slipPagePath(slip)}.png`;
      const slipView = {
        transactionRef: slip.transactionRef,
        sendingBankCode: slip.sendingBankCode,
        chargeId: slip.chargeId,
        chargeStatus: payments.store.charges.get(slip.chargeId)?.charge.status ?? 'PENDING',
        amountSatang: slip.amountSatang,
        reference: slip.reference,
        payeeName: slip.payeeName,
        paidAt: slip.paidAt.toISOString(),
        raw: slip.raw,
      };
      const page = renderSlipPage({ stylesheetHref: STYLESHEET_HREF, slip: slipView, imageHref, downloadHref: `${imageHref}?download`, payerHref: `${SANDBOX_PAGES_PATH}/promptpay` });
      return pageResponse(200, page);
    }),
  ];
}
