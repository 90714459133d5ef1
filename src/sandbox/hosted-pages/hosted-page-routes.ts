import type { SandboxPayments } from '../charges/sandbox-payments.js';
import { SANDBOX_OTP_CODE } from '../defaults.js';
import type { Html } from '../http/html.js';
import { pageResponse, renderErrorPage, SANDBOX_PAGES_PATH, seeOther, STYLESHEET_HREF, stylesheetResponse } from '../http/page-layout.js';
import { readFormPost } from '../http/read-body.js';
import { pageRoute, type PageArea, type RouteContext, type SandboxRoute } from '../http/route.js';
import { SANDBOX_SLIPS_PAGE_PATH } from '../slips/qr-slips.js';
import { renderAuthorizePage } from './authorize-page.js';
import { renderForcePage } from './force-page.js';
import { stepOutcome, type HostedStep, type HostedSteps, type StepPage } from './hosted-steps.js';
import { renderOtpPage } from './otp-page.js';
import { SANDBOX_PAGES_CSS } from './page-stylesheet.js';
import { renderPromptPayPayerPage } from './promptpay-payer-page.js';
import { renderResultPage } from './result-page.js';

const PROMPTPAY_PATH = `${SANDBOX_PAGES_PATH}/promptpay`;

/** Every page under `/sandbox/pages` that no route serves is this page. */
const HOSTED_PAGES_AREA: PageArea = {
  prefix: SANDBOX_PAGES_PATH,
  notFound: () => pageResponse(404, renderErrorPage({ stylesheetHref: STYLESHEET_HREF, title: 'Page not found', message: 'There is no sandbox page at this address.' })),
};

export interface HostedPageRoutesOptions {
  steps: HostedSteps;
  payments: SandboxPayments;
  now: () => Date;
  maxBodyBytes: number;
}

/**
 * The pages a shopper is sent to: the 3-D Secure OTP page, the force page, the wallet and
 * banking-app authorize page, the PromptPay payer simulator and their stylesheet. Plain HTML
 * forms: they work without JavaScript, and each completes the charge (or card authorization)
 * and then goes to its returnUrl.
 */
export function hostedPageRoutes({ steps, payments, now, maxBodyBytes }: HostedPageRoutesOptions): SandboxRoute[] {
  const stepRoutes = (['otp', 'force', 'authorize'] as const).flatMap((step) => {
    const path = `${SANDBOX_PAGES_PATH}/${step}/:id` as const;
    return [
      pageRoute(HOSTED_PAGES_AREA, 'GET', path, (context) => showStep(steps, step, context)),
      pageRoute(HOSTED_PAGES_AREA, 'POST', path, (context) => takeStep(steps, step, context, maxBodyBytes)),
    ];
  });
  const payer = (view: { rawData?: string | undefined; message?: { kind: 'error'; text: string } }) =>
    renderPromptPayPayerPage({ stylesheetHref: STYLESHEET_HREF, action: PROMPTPAY_PATH, slipAction: SANDBOX_SLIPS_PAGE_PATH, pending: steps.pendingQrCharges(), ...view });

  return [
    pageRoute(HOSTED_PAGES_AREA, 'GET', STYLESHEET_HREF, () => stylesheetResponse(SANDBOX_PAGES_CSS)),
    pageRoute(HOSTED_PAGES_AREA, 'GET', PROMPTPAY_PATH, ({ url }) => pageResponse(200, payer({ rawData: url.searchParams.get('rawData') ?? undefined }))),
    pageRoute(HOSTED_PAGES_AREA, 'POST', PROMPTPAY_PATH, async ({ request }) => {
      const form = await readFormPost(request, maxBodyBytes);
      const rawData = (form.get('rawData') ?? '').trim();
      const choice = form.get('outcome');
      const again = (status: number, text: string) => pageResponse(status, payer({ rawData, message: { kind: 'error', text } }));
      if (choice !== 'succeed' && choice !== 'fail') return again(400, 'Choose Pay or Decline.');
      if (rawData === '') return again(400, 'Paste the QR code’s text (its rawData) first.');
      const record = payments.findChargeByQrPayload(rawData);
      if (!record?.qr) return again(404, 'No charge matches this QR code. Check that you copied all of it.');
      if (record.charge.status !== 'PENDING') return again(409, `This QR code was already used: the charge is ${record.charge.status}.`);
      if (record.qr.expiresAt.getTime() <= now().getTime()) return again(410, 'This QR code has expired. Ask the shop for a new one.');
      payments.charges.settle(record.charge.chargeId, stepOutcome('promptpay', choice === 'succeed'));
      return finished(steps.chargeStep(record), choice === 'succeed' ? 'Payment sent' : 'Payment declined');
    }),
    ...stepRoutes,
  ];
}

/** What a step page gets: the id of the charge or authorization in its path. */
type StepContext = RouteContext<{ readonly id: string }>;

/** The step waiting on this page, or the reason there is none. */
function pendingStep(steps: HostedSteps, step: StepPage, { params }: StepContext): HostedStep | Response {
  const subject = steps.find(params.id);
  if (subject?.step !== step) {
    return pageResponse(404, renderErrorPage({ stylesheetHref: STYLESHEET_HREF, title: 'Payment not found', message: 'No payment is waiting for this step. Check the link, or start the payment again.' }));
  }
  if (subject.view().status !== 'PENDING') return finished(subject, 'This payment is already complete');
  return subject;
}

function stepPage(step: StepPage, subject: HostedStep, action: string, error?: string): Html {
  const view = { stylesheetHref: STYLESHEET_HREF, charge: subject.view(), action };
  if (step === 'otp') return renderOtpPage(error === undefined ? view : { ...view, error });
  if (step === 'force') return renderForcePage(view);
  return renderAuthorizePage({ ...view, methodLabel: subject.methodLabel });
}

function showStep(steps: HostedSteps, step: StepPage, context: StepContext): Response {
  const subject = pendingStep(steps, step, context);
  return subject instanceof Response ? subject : pageResponse(200, stepPage(step, subject, context.url.pathname));
}

async function takeStep(steps: HostedSteps, step: StepPage, context: StepContext, maxBodyBytes: number): Promise<Response> {
  const subject = pendingStep(steps, step, context);
  if (subject instanceof Response) return subject;
  const form = await readFormPost(context.request, maxBodyBytes);
  let succeed: boolean;
  if (step === 'otp') {
    const otp = (form.get('otp') ?? '').trim();
    if (otp === '') return pageResponse(400, stepPage(step, subject, context.url.pathname, 'Enter the one-time code.'));
    succeed = otp === SANDBOX_OTP_CODE;
  } else {
    const choice = form.get(step === 'force' ? 'outcome' : 'decision');
    const yes = step === 'force' ? 'succeed' : 'approve';
    const no = step === 'force' ? 'fail' : 'decline';
    if (choice !== yes && choice !== no) {
      return pageResponse(400, renderErrorPage({ stylesheetHref: STYLESHEET_HREF, title: 'Choose an outcome', message: `Send ${yes} or ${no}.` }));
    }
    succeed = choice === yes;
  }
  subject.complete(stepOutcome(step, succeed));
  return finished(subject, succeed ? 'Payment approved' : 'Payment not approved');
}

/** After a step: back to the merchant when it gave a return URL, else a page with the outcome. */
function finished(subject: HostedStep, title: string): Response {
  if (subject.returnUrl) return seeOther(subject.returnUrl);
  const charge = subject.view();
  const message =
    charge.status === 'SUCCEEDED'
      ? 'The payment succeeded. You can close this page.'
      : charge.status === 'FAILED'
        ? `The payment failed (${charge.failureCode}). You can close this page.`
        : 'The payment is still waiting.';
  return pageResponse(200, renderResultPage({ stylesheetHref: STYLESHEET_HREF, title, message, charge }));
}
