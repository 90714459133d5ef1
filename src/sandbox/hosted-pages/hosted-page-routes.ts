import type { SandboxPayments } from '../charges/sandbox-payments.js';
import { SANDBOX_OTP_CODE } from '../defaults.js';
import type { Html } from '../http/html.js';
import { pageHeadersReturningTo, pageResponse, renderErrorPage, seeOther, STYLESHEET_HREF, SANDBOX_PAGES_PATH, stylesheetResponse } from '../http/page-layout.js';
import { readFormPost } from '../http/read-body.js';
import { apiRoute, pageRoute, type PageArea, type RouteContext, type SandboxRoute } from '../http/route.js';
import { jsonResponse, SandboxError } from '../http/sandbox-error.js';
import { SANDBOX_SLIPS_PAGE_PATH } from '../slips/qr-slips.js';
import { renderAuthorizePage } from './authorize-page.js';
import { renderForcePage } from './force-page.js';
import { stepOutcome, type HostedStep, type HostedSteps, type StepPage } from './hosted-steps.js';
import { renderOtpPage } from './otp-page.js';
import { LanguageRefused, negotiatePageLanguage, type PageLocale } from './page-language.js';
import { SANDBOX_PAGES_CSS } from './page-stylesheet.js';
import { methodName } from './page-text.js';
import { PayerLinks, PROMPTPAY_PAYER_PATH } from './payer-links.js';
import { renderPayerLinkPage, renderPromptPayPayerPage, type PayerMessage } from './promptpay-payer-page.js';
import { renderResultPage } from './result-page.js';

/** The control endpoint that hands a merchant the payer link of one of its QR charges. */
export const PAYER_LINK_ENDPOINT = '/sandbox/v1/charges/:chargeId/payer-link';

/** Every page under `/sandbox/pages` that no route serves is this page, in the shopper's language. */
const HOSTED_PAGES_AREA: PageArea = {
  prefix: SANDBOX_PAGES_PATH,
  notFound: ({ request, url }) => {
    const negotiated = negotiatePageLanguage(request, url);
    const locale = negotiated instanceof LanguageRefused ? negotiated.locale : negotiated;
    return errorPage(404, locale, locale.text.notFound.pageTitle, locale.text.notFound.page);
  },
};

export interface HostedPageRoutesOptions {
  steps: HostedSteps;
  payments: SandboxPayments;
  now: () => Date;
  maxBodyBytes: number;
  /** Signs the payer links of QR charges; a key of its own, drawn at random, by default. */
  payerLinks?: PayerLinks;
}

/** A page handler that is handed the language the request negotiated. */
type LocalizedHandler<C extends RouteContext<unknown>> = (context: C, locale: PageLocale) => Response | Promise<Response>;

/**
 * Negotiates the page's language before `handle` runs (`lang=`, then Accept-Language); a `lang`
 * that is no language tag is answered with a 400 page, before anything is read or changed.
 */
function localized<C extends RouteContext<unknown>>(handle: LocalizedHandler<C>): (context: C) => Response | Promise<Response> {
  return (context) => {
    const locale = negotiatePageLanguage(context.request, context.url);
    if (locale instanceof LanguageRefused) {
      const { text } = locale.locale;
      return errorPage(400, locale.locale, text.badLanguage.title, text.badLanguage.message);
    }
    return handle(context, locale);
  };
}

function errorPage(status: number, locale: PageLocale, title: string, message: string): Response {
  return pageResponse(status, renderErrorPage({ stylesheetHref: STYLESHEET_HREF, title, message, issuer: locale.text.sandboxIssuer, document: locale.document }));
}

/**
 * The pages a shopper is sent to: the 3-D Secure OTP page, the force page, the wallet and
 * banking-app authorize page, the PromptPay payer simulator and each QR charge's payer link, and
 * their stylesheet; plus the control endpoint that gives a merchant a QR charge's payer link.
 * Plain HTML forms: they work without JavaScript, and each completes the charge (or card
 * authorization) and then goes to its returnUrl. Every page speaks Thai or English, as the
 * shopper's `lang=` or Accept-Language asks, and names the merchant being paid.
 */
export function hostedPageRoutes({ steps, payments, now, maxBodyBytes, payerLinks = new PayerLinks() }: HostedPageRoutesOptions): SandboxRoute[] {
  const stepRoutes = (['otp', 'force', 'authorize'] as const).flatMap((step) => {
    const path = `${SANDBOX_PAGES_PATH}/${step}/:id` as const;
    return [
      pageRoute(HOSTED_PAGES_AREA, 'GET', path, localized((context, locale) => showStep(steps, step, context, locale))),
      pageRoute(HOSTED_PAGES_AREA, 'POST', path, localized((context, locale) => takeStep(steps, step, context, locale, maxBodyBytes))),
    ];
  });
  const payer = (locale: PageLocale, view: { rawData?: string | undefined; message?: PayerMessage }) =>
    renderPromptPayPayerPage({ stylesheetHref: STYLESHEET_HREF, locale, action: `${PROMPTPAY_PAYER_PATH}${locale.query}`, slipAction: SANDBOX_SLIPS_PAGE_PATH, ...view });

  /** The QR charge a payer link opens, or undefined for an unknown charge or a wrong secret alike. */
  const linkedCharge = async ({ chargeId, secret }: { readonly chargeId: string; readonly secret: string }) => {
    // The secret is checked whether or not the charge exists, so the answer tells nothing about ids.
    const valid = await payerLinks.verify(chargeId, secret);
    const record = steps.qrCharge(chargeId);
    return valid ? record : undefined;
  };
  const linkPath = `${PROMPTPAY_PAYER_PATH}/:chargeId/:secret` as const;
  const linkPage = (
    locale: PageLocale,
    record: NonNullable<ReturnType<HostedSteps['qrCharge']>>,
    action: string,
    status = 200,
    message?: PayerMessage,
  ): Response => {
    const expired = steps.isExpired(record);
    return pageResponse(
      expired ? 410 : status,
      renderPayerLinkPage({
        stylesheetHref: STYLESHEET_HREF,
        locale,
        charge: steps.chargeStep(record).view(),
        rawData: record.qr.rawData,
        expiresAt: record.qr.expiresAt.toISOString(),
        expired,
        action: `${action}${locale.query}`,
        slipAction: SANDBOX_SLIPS_PAGE_PATH,
        ...(message ? { message } : {}),
      }),
    );
  };
  const unknownLink = (locale: PageLocale) => errorPage(404, locale, locale.text.notFound.title, locale.text.notFound.payerLink);

  return [
    pageRoute(HOSTED_PAGES_AREA, 'GET', STYLESHEET_HREF, () => stylesheetResponse(SANDBOX_PAGES_CSS)),
    pageRoute(
      HOSTED_PAGES_AREA,
      'GET',
      PROMPTPAY_PAYER_PATH,
      localized(({ url }, locale) => pageResponse(200, payer(locale, { rawData: url.searchParams.get('rawData') ?? undefined }))),
    ),
    pageRoute(
      HOSTED_PAGES_AREA,
      'POST',
      PROMPTPAY_PAYER_PATH,
      localized(async ({ request }, locale) => {
        const words = locale.text.payer;
        const form = await readFormPost(request, maxBodyBytes);
        const rawData = (form.get('rawData') ?? '').trim();
        const choice = form.get('outcome');
        const again = (status: number, text: string) => pageResponse(status, payer(locale, { rawData, message: { kind: 'error', text } }));
        if (choice !== 'succeed' && choice !== 'fail') return again(400, words.chooseOutcome);
        if (rawData === '') return again(400, words.pastePayload);
        const record = payments.findChargeByQrPayload(rawData);
        if (!record?.qr) return again(404, words.noMatch);
        if (record.charge.status !== 'PENDING') return again(409, words.alreadyUsed(record.charge.status));
        if (record.qr.expiresAt.getTime() <= now().getTime()) return again(410, words.expired);
        payments.charges.settle(record.charge.chargeId, stepOutcome('promptpay', choice === 'succeed'));
        return finished(steps.chargeStep(record), locale, choice === 'succeed' ? locale.text.result.paid : locale.text.result.declined);
      }),
    ),
    pageRoute(
      HOSTED_PAGES_AREA,
      'GET',
      linkPath,
      localized(async ({ params, url }, locale) => {
        const record = await linkedCharge(params);
        if (!record) return unknownLink(locale);
        if (record.charge.status !== 'PENDING') return finished(steps.chargeStep(record), locale, locale.text.result.alreadyComplete);
        return linkPage(locale, record, url.pathname);
      }),
    ),
    pageRoute(
      HOSTED_PAGES_AREA,
      'POST',
      linkPath,
      localized(async ({ params, url, request }, locale) => {
        const record = await linkedCharge(params);
        if (!record) return unknownLink(locale);
        const form = await readFormPost(request, maxBodyBytes);
        // Nothing below awaits: the charge is read and settled in one turn.
        if (record.charge.status !== 'PENDING') return finished(steps.chargeStep(record), locale, locale.text.result.alreadyComplete);
        const choice = form.get('outcome');
        if (choice !== 'succeed' && choice !== 'fail') return linkPage(locale, record, url.pathname, 400, { kind: 'error', text: locale.text.payer.chooseOutcome });
        if (steps.isExpired(record)) return linkPage(locale, record, url.pathname);
        payments.charges.settle(record.charge.chargeId, stepOutcome('promptpay', choice === 'succeed'));
        return finished(steps.chargeStep(record), locale, choice === 'succeed' ? locale.text.result.paid : locale.text.result.declined);
      }),
    ),
    apiRoute('GET', PAYER_LINK_ENDPOINT, async ({ params, merchant, origin }) => {
      const record = steps.qrCharge(params.chargeId);
      if (record?.charge.merchantId !== merchant.merchantId) {
        const own = payments.store.charges.get(params.chargeId)?.charge.merchantId === merchant.merchantId;
        throw own
          ? new SandboxError('OPERATION_NOT_ALLOWED_ERROR', `${params.chargeId} is not a QR PromptPay charge; only those have a payer link`)
          : new SandboxError('NOT_FOUND_ERROR', `no charge with id ${params.chargeId}`);
      }
      return jsonResponse(200, {
        chargeId: record.charge.chargeId,
        status: record.charge.status,
        expiresAt: record.qr.expiresAt.toISOString(),
        payerUrl: `${origin}${await payerLinks.pathOf(record.charge.chargeId)}`,
      });
    }),
    ...stepRoutes,
  ];
}

/** What a step page gets: the id of the charge or authorization in its path. */
type StepContext = RouteContext<{ readonly id: string }>;

/** The step waiting on this page, or the reason there is none. */
function pendingStep(steps: HostedSteps, step: StepPage, { params }: StepContext, locale: PageLocale): HostedStep | Response {
  const subject = steps.find(params.id);
  if (subject?.step !== step) return errorPage(404, locale, locale.text.notFound.title, locale.text.notFound.step);
  if (subject.view().status !== 'PENDING') return finished(subject, locale, locale.text.result.alreadyComplete);
  return subject;
}

function stepPage(step: StepPage, subject: HostedStep, locale: PageLocale, action: string, error?: string): Html {
  const charge = subject.view();
  const view = { stylesheetHref: STYLESHEET_HREF, locale, charge, action: `${action}${locale.query}` };
  if (step === 'otp') return renderOtpPage(error === undefined ? view : { ...view, error });
  if (step === 'force') return renderForcePage(view);
  return renderAuthorizePage({ ...view, methodLabel: methodName(locale.lang, charge.paymentMethodType) });
}

function showStep(steps: HostedSteps, step: StepPage, context: StepContext, locale: PageLocale): Response {
  const subject = pendingStep(steps, step, context, locale);
  return subject instanceof Response ? subject : pageResponse(200, stepPage(step, subject, locale, context.url.pathname), pageHeadersReturningTo(subject.returnUrl));
}

async function takeStep(steps: HostedSteps, step: StepPage, context: StepContext, locale: PageLocale, maxBodyBytes: number): Promise<Response> {
  const subject = pendingStep(steps, step, context, locale);
  if (subject instanceof Response) return subject;
  const form = await readFormPost(context.request, maxBodyBytes);
  let succeed: boolean;
  if (step === 'otp') {
    const otp = (form.get('otp') ?? '').trim();
    if (otp === '') return pageResponse(400, stepPage(step, subject, locale, context.url.pathname, locale.text.otp.empty), pageHeadersReturningTo(subject.returnUrl));
    succeed = otp === SANDBOX_OTP_CODE;
  } else {
    const choice = form.get(step === 'force' ? 'outcome' : 'decision');
    const yes = step === 'force' ? 'succeed' : 'approve';
    const no = step === 'force' ? 'fail' : 'decline';
    if (choice !== yes && choice !== no) {
      const { title, message } = locale.text.chooseOutcome;
      return errorPage(400, locale, title, message(yes, no));
    }
    succeed = choice === yes;
  }
  // The form was read after the step was found: complete it only if nothing completed it meanwhile.
  if (subject.view().status !== 'PENDING') return finished(subject, locale, locale.text.result.alreadyComplete);
  subject.complete(stepOutcome(step, succeed));
  return finished(subject, locale, succeed ? locale.text.result.approved : locale.text.result.notApproved);
}

/** After a step: back to the merchant when it gave a return URL, else a page with the outcome. */
function finished(subject: HostedStep, locale: PageLocale, title: string): Response {
  if (subject.returnUrl) return seeOther(subject.returnUrl);
  const charge = subject.view();
  const words = locale.text.result;
  const message =
    charge.status === 'SUCCEEDED'
      ? words.succeeded(charge.merchantName ?? locale.text.theMerchant)
      : charge.status === 'FAILED'
        ? words.failed(charge.failureCode ?? '')
        : words.pending;
  return pageResponse(200, renderResultPage({ stylesheetHref: STYLESHEET_HREF, locale, title, message, charge }));
}
