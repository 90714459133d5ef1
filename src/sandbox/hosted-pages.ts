import { PAYMENT_METHOD_FAMILY } from '../core/schemas/payment-method.js';
import { SANDBOX_OTP_CODE } from './defaults.js';
import {
  SANDBOX_PAGES_CSS,
  renderAuthorizePage,
  renderErrorPage,
  renderForcePage,
  renderOtpPage,
  renderPromptPayPayerPage,
  renderResultPage,
  paymentMethodLabel,
  type ChargeView,
} from './pages.js';
import type { ChargeOutcome, SandboxPayments } from './payments.js';
import { readText } from './http/read-body.js';
import { SandboxError } from './http/sandbox-error.js';
import type { ChargeRecord } from './store/sandbox-store.js';

/** Where the hosted pages live on the sandbox. */
export const SANDBOX_PAGES_PATH = '/sandbox/pages';

/** Where the router serves the hosted pages' stylesheet. */
export const STYLESHEET_HREF = `${SANDBOX_PAGES_PATH}/style.css`;
/** Headers of every hosted page: no caching, and a CSP that allows no script and no inline style. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self' http: https:; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/** The hosted pages that complete one pending payment step. */
export type StepPage = 'otp' | 'force' | 'authorize';

/**
 * What a step page acts on: a pending charge, or another resource a card step completes (a card
 * authorization). `view` is read again after `complete`, to show or follow the outcome.
 */
export interface HostedStep {
  /** The page this step is taken on; undefined when it needs none. */
  step: StepPage | undefined;
  view(): ChargeView;
  returnUrl: string | undefined;
  /** The method's name on the authorize page. */
  methodLabel: string;
  complete(outcome: ChargeOutcome): void;
}

/** Finds the step of a resource by its id, or undefined when the id is not one of its own. */
export type HostedStepFinder = (id: string) => HostedStep | undefined;

/**
 * The pages a shopper is sent to: the 3-D Secure OTP page, the force page, the wallet and
 * banking-app authorize page, and the PromptPay payer simulator. Plain HTML forms: they work
 * without JavaScript, and every one completes the charge (or card authorization) and then goes to
 * its returnUrl.
 */
export class HostedPages {
  readonly #payments: SandboxPayments;
  readonly #now: () => Date;
  readonly #maxBodyBytes: number;
  readonly #finders: HostedStepFinder[] = [];

  constructor(payments: SandboxPayments, now: () => Date, maxBodyBytes: number) {
    this.#payments = payments;
    this.#now = now;
    this.#maxBodyBytes = maxBodyBytes;
  }

  /**
   * Lets resources besides charges send their shopper through the OTP and force pages: their ids
   * then resolve through `find` where no charge has the id.
   */
  addSteps(find: HostedStepFinder): void {
    this.#finders.push(find);
  }

  /** Answers a request for a hosted page, or `undefined` when the path is not one. */
  async handle(request: Request, url: URL): Promise<Response | undefined> {
    const path = url.pathname;
    if (!path.startsWith(`${SANDBOX_PAGES_PATH}/`)) return undefined;
    const rest = path.slice(SANDBOX_PAGES_PATH.length + 1);
    if (rest === 'style.css') {
      this.#only(request, ['GET']);
      return new Response(SANDBOX_PAGES_CSS, {
        headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' },
      });
    }
    if (rest === 'promptpay') return this.#promptPay(request, url);
    const match = /^(otp|force|authorize)\/([^/]+)$/.exec(rest);
    if (!match) return page(404, renderErrorPage({ stylesheetHref: STYLESHEET_HREF, title: 'Page not found', message: 'There is no sandbox page at this address.' }));
    return this.#step(request, url, match[1] as StepPage, safeDecode(match[2]!));
  }

  /**
   * Completes the pending step of a charge, or of another resource with a step (a card
   * authorization), as its hosted page does when the payer succeeds or fails it: the same outcome
   * and failure code, so the same webhooks and transactions follow. A QR charge is paid or
   * declined as on the PromptPay payer page. For tools that act for the payer, such as the
   * dashboard. Throws NOT_FOUND_ERROR for an unknown id, REQUEST_CONFLICT_ERROR once the step is
   * complete and OPERATION_NOT_ALLOWED_ERROR for an expired QR code.
   */
  completeStep(id: string, succeed: boolean): void {
    const subject = this.#findStep(id);
    if (!subject) throw new SandboxError('NOT_FOUND_ERROR', `no payment with id ${id} is waiting for a step`);
    const current = subject.view();
    if (current.status !== 'PENDING') throw new SandboxError('REQUEST_CONFLICT_ERROR', `${id} is already ${current.status}`);
    const qr = this.#payments.store.charges.get(id)?.qr;
    if (qr && qr.expiresAt.getTime() <= this.#now().getTime()) {
      throw new SandboxError('OPERATION_NOT_ALLOWED_ERROR', `the QR code of ${id} expired at ${qr.expiresAt.toISOString()}; it can no longer be paid`);
    }
    subject.complete(stepOutcome(qr ? 'promptpay' : subject.step, succeed));
  }

  async #step(request: Request, url: URL, step: StepPage, id: string): Promise<Response> {
    this.#only(request, ['GET', 'POST']);
    const subject = this.#findStep(id);
    if (!subject || subject.step !== step) {
      return page(404, renderErrorPage({ stylesheetHref: STYLESHEET_HREF, title: 'Payment not found', message: 'No payment is waiting for this step. Check the link, or start the payment again.' }));
    }
    const charge = subject.view();
    if (charge.status !== 'PENDING') return this.#finished(subject, 'This payment is already complete');
    const action = url.pathname;
    const links = { stylesheetHref: STYLESHEET_HREF };
    if (request.method === 'GET') {
      if (step === 'otp') return page(200, renderOtpPage({ ...links, charge, action }));
      if (step === 'force') return page(200, renderForcePage({ ...links, charge, action }));
      return page(200, renderAuthorizePage({ ...links, charge, action, methodLabel: subject.methodLabel }));
    }

    const form = await this.#form(request);
    let outcome: ChargeOutcome;
    if (step === 'otp') {
      const otp = (form.get('otp') ?? '').trim();
      if (otp === '') return page(400, renderOtpPage({ ...links, charge, action, error: 'Enter the one-time code.' }));
      outcome = stepOutcome(step, otp === SANDBOX_OTP_CODE);
    } else {
      const choice = form.get(step === 'force' ? 'outcome' : 'decision');
      const succeed = step === 'force' ? 'succeed' : 'approve';
      const fail = step === 'force' ? 'fail' : 'decline';
      if (choice !== succeed && choice !== fail) {
        return page(400, renderErrorPage({ ...links, title: 'Choose an outcome', message: `Send ${succeed} or ${fail}.` }));
      }
      outcome = stepOutcome(step, choice === succeed);
    }
    subject.complete(outcome);
    return this.#finished(subject, outcome.status === 'SUCCEEDED' ? 'Payment approved' : 'Payment not approved');
  }

  async #promptPay(request: Request, url: URL): Promise<Response> {
    this.#only(request, ['GET', 'POST']);
    const links = { stylesheetHref: STYLESHEET_HREF, action: url.pathname, slipAction: `${SANDBOX_PAGES_PATH}/slips` };
    if (request.method === 'GET') {
      return page(200, renderPromptPayPayerPage({ ...links, rawData: url.searchParams.get('rawData') ?? undefined, pending: this.#pendingQrCharges() }));
    }
    const form = await this.#form(request);
    const rawData = (form.get('rawData') ?? '').trim();
    const choice = form.get('outcome');
    const again = (status: number, text: string) =>
      page(status, renderPromptPayPayerPage({ ...links, rawData, message: { kind: 'error', text }, pending: this.#pendingQrCharges() }));
    if (choice !== 'succeed' && choice !== 'fail') return again(400, 'Choose Pay or Decline.');
    if (rawData === '') return again(400, 'Paste the QR code’s text (its rawData) first.');
    const record = this.#payments.findChargeByQrPayload(rawData);
    if (!record?.qr) return again(404, 'No charge matches this QR code. Check that you copied all of it.');
    if (record.charge.status !== 'PENDING') return again(409, `This QR code was already used: the charge is ${record.charge.status}.`);
    if (record.qr.expiresAt.getTime() <= this.#now().getTime()) return again(410, 'This QR code has expired. Ask the shop for a new one.');
    this.#payments.settleCharge(record.charge.chargeId, stepOutcome('promptpay', choice === 'succeed'));
    return this.#finished(chargeStep(record, this.#payments), choice === 'succeed' ? 'Payment sent' : 'Payment declined');
  }

  /** After a step: back to the merchant when it gave a return URL, else a page with the outcome. */
  #finished(subject: HostedStep, title: string): Response {
    if (subject.returnUrl) return new Response(null, { status: 303, headers: { location: subject.returnUrl, 'cache-control': 'no-store' } });
    const charge = subject.view();
    const message =
      charge.status === 'SUCCEEDED'
        ? 'The payment succeeded. You can close this page.'
        : charge.status === 'FAILED'
          ? `The payment failed (${charge.failureCode}). You can close this page.`
          : 'The payment is still waiting.';
    return page(200, renderResultPage({ stylesheetHref: STYLESHEET_HREF, title, message, charge }));
  }

  #findStep(id: string): HostedStep | undefined {
    const record = this.#payments.store.charges.get(id);
    if (record) return chargeStep(record, this.#payments);
    for (const find of this.#finders) {
      const found = find(id);
      if (found) return found;
    }
    return undefined;
  }

  #pendingQrCharges() {
    const now = this.#now().getTime();
    const pending = [];
    for (const record of this.#payments.store.charges.values()) {
      if (record.qr && record.charge.status === 'PENDING') {
        pending.push({
          seq: record.seq,
          chargeId: record.charge.chargeId,
          amountSatang: record.charge.amount,
          rawData: record.qr.rawData,
          expiresAt: record.qr.expiresAt.toISOString(),
          expired: record.qr.expiresAt.getTime() <= now,
        });
      }
    }
    return pending.sort((a, b) => b.seq - a.seq).slice(0, 20).map(({ seq: _seq, ...rest }) => rest);
  }

  async #form(request: Request): Promise<URLSearchParams> {
    const type = request.headers.get('content-type') ?? '';
    if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type.trim())) {
      throw new SandboxError('UNSUPPORTED_MEDIA_TYPE_ERROR', 'hosted pages take form posts (application/x-www-form-urlencoded)');
    }
    return new URLSearchParams(await readText(request, this.#maxBodyBytes));
  }

  #only(request: Request, methods: string[]): void {
    if (!methods.includes(request.method)) {
      throw new SandboxError('METHOD_NOT_ALLOWED_ERROR', `${request.method} is not allowed here; use ${methods.join(' or ')}`, { allow: methods.join(', ') });
    }
  }
}

/**
 * What a payer's success or failure on a step means for the charge: a failed OTP or a declined
 * wallet or banking app is CH_AUTHENTICATION_FAILED; a forced failure, a declined QR and a step
 * with no page of its own are CH_PROCESSING_FAILED.
 */
function stepOutcome(step: StepPage | 'promptpay' | undefined, succeed: boolean): ChargeOutcome {
  if (succeed) return { status: 'SUCCEEDED' };
  return { status: 'FAILED', failureCode: step === 'otp' || step === 'authorize' ? 'CH_AUTHENTICATION_FAILED' : 'CH_PROCESSING_FAILED' };
}

function pageFor(record: ChargeRecord): StepPage | undefined {
  if (record.cardBehaviour?.outcome === 'otp') return 'otp';
  if (record.cardBehaviour?.outcome === 'force') return 'force';
  const family = PAYMENT_METHOD_FAMILY[record.requestedType];
  if (family === 'e-wallet' || family === 'mobile-banking' || family === 'pay-later') return 'authorize';
  return undefined;
}

function chargeStep(record: ChargeRecord, payments: SandboxPayments): HostedStep {
  return {
    step: pageFor(record),
    view: () => chargeView(record),
    returnUrl: record.returnUrl,
    methodLabel: paymentMethodLabel(record.requestedType),
    complete: (outcome) => payments.settleCharge(record.charge.chargeId, outcome),
  };
}

function chargeView(record: ChargeRecord): ChargeView {
  const { charge } = record;
  return {
    chargeId: charge.chargeId,
    amountSatang: charge.amount,
    currency: charge.currency,
    referenceId: charge.referenceId ?? '',
    paymentMethodType: record.requestedType,
    status: charge.status,
    ...(charge.failureCode ? { failureCode: charge.failureCode } : {}),
  };
}

function page(status: number, html: string): Response {
  return new Response(html, { status, headers: PAGE_HEADERS });
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
