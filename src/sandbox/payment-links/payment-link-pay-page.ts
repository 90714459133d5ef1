import type { DeviceType } from '../../core/schemas/payment-method.js';
import { SANDBOX_DEFAULTS, SANDBOX_TEST_CARDS } from '../defaults.js';
import { newId } from '../store/ids.js';
import { pageResponse, renderErrorPage, SANDBOX_PAGES_PATH, seeOther, STYLESHEET_HREF } from '../http/page-layout.js';
import type { RouteContext } from '../http/route.js';
import { readFormPost } from '../http/read-body.js';
import type { SandboxPayments } from '../charges/sandbox-payments.js';
import { SandboxError } from '../http/sandbox-error.js';
import { LINK_SETTING_MEMBERS, LINK_SETTING_METHODS, type LinkSettingMember, type PaymentLinkMethod } from './link-settings.js';
import { renderPaymentLinkPage } from './payment-link-form-page.js';
import { deviceTypeOf, isPhoneOnly, readPaymentForm, type PaymentLinkErrors, type PaymentLinkValues } from './payment-link-form.js';
import {
  renderPaymentLinkQrPage,
  renderPaymentLinkStatusPage,
  type PaymentLinkFormView,
  type PaymentLinkNotice,
  type PaymentLinkOrderView,
  type PaymentMethodGroupView,
} from './payment-link-pages.js';
import type { PaymentLinkAttempt, PaymentLinkRecord } from './payment-link-record.js';
import { PAYMENT_LINK_PAGES_PATH, type SandboxPaymentLinks } from './payment-links.js';

const STYLESHEETS = [STYLESHEET_HREF, `${PAYMENT_LINK_PAGES_PATH}/style.css`];

/** Headings of the method groups whose methods' own names do not say what they are. */
const GROUP_HEADINGS: Readonly<Partial<Record<LinkSettingMember, string>>> = {
  eWallets: 'E-wallets',
  mobileBanking: 'Mobile banking',
  buyNowPayLater: 'Buy now, pay later',
};

const PROCESSING_FAILED = 'The payment could not be processed.';
const FAILURE_MESSAGES: Readonly<Record<string, string>> = {
  CH_INSUFFICIENT_FUNDS: 'The card has insufficient funds.',
  CH_AUTHENTICATION_FAILED: 'The payment could not be verified.',
  CH_PROCESSING_FAILED: PROCESSING_FAILED,
};

const NOTHING_OFFERED: PaymentLinkNotice = {
  kind: 'error',
  text: 'This link offers no payment method that can pay this amount. Ask the shop for another link.',
};

/** Where the charge's hosted steps send the payer back to: the link's page, naming the attempt. */
const ATTEMPT_PARAM = 'attempt';

/** What a form token looks like; anything else gets a fresh one, so it cannot name another attempt. */
const FORM_TOKEN = /^[A-Za-z0-9_-]{8,64}$/;

/** What a route of a link's page gets: the link's id from its path. */
type LinkPageRequest = RouteContext<{ readonly paymentLinkId: string }>;

/** The request a page answers, as far as the page cares. */
interface PageContext {
  url: URL;
  /** From the User-Agent: the banking apps that need a phone are offered only on one. */
  deviceType: DeviceType;
}

/** The 404 page of a payment link address that names no link. */
export function paymentLinkNotFound(): Response {
  const message = 'There is no payment link at this address. Check the link you were sent.';
  return pageResponse(404, renderErrorPage({ stylesheetHref: STYLESHEET_HREF, title: 'Payment link not found', message }));
}

/**
 * The hosted pay page of every payment link at `{PAYMENT_LINK_PAGES_PATH}/{paymentLinkId}`. GET
 * shows the order and a form; POST pays, by creating a real charge of the link, then:
 * - a card that succeeds at once: the link is PAID and the payer goes (303) to `redirectUrl`, or
 *   sees a "payment received" page when the link has none;
 * - a card that fails: the form again, 402, saying why; the link stays ACTIVE for another try;
 * - 3-D Secure, the force page, wallets and banking apps: 303 to that hosted step, which sends
 *   the payer back here (`?attempt=`), where the outcome is shown as above;
 * - PromptPay: 303 to the attempt's QR page (`?attempt=`), paid on the PromptPay payer simulator.
 *
 * A link that is not ACTIVE refuses to pay: 409 when PAID, 410 when EXPIRED or DISABLED, 404 for
 * an unknown id. The form's fields are read by {@link readPaymentForm}. The page charges
 * `order.netAmount`, and offers installments only with the periods that amount reaches (the link
 * may enable others: the service does not refuse them at creation).
 */
export class PaymentLinkPayPage {
  readonly #links: SandboxPaymentLinks;
  readonly #payments: SandboxPayments;
  readonly #now: () => Date;
  readonly #maxBodyBytes: number;

  constructor(options: { links: SandboxPaymentLinks; payments: SandboxPayments; now: () => Date; maxBodyBytes: number }) {
    this.#links = options.links;
    this.#payments = options.payments;
    this.#now = options.now;
    this.#maxBodyBytes = options.maxBodyBytes;
  }

  /** GET: the form, the link's end, or the outcome of the attempt `?attempt=` names. */
  async show({ request, url, params }: LinkPageRequest): Promise<Response> {
    const record = this.#links.find(params.paymentLinkId);
    if (!record) return paymentLinkNotFound();
    const context: PageContext = { url, deviceType: deviceTypeOf(request) };
    const token = url.searchParams.get(ATTEMPT_PARAM);
    const attempt = token === null ? undefined : await this.#links.attempt(record, token)?.catch(() => undefined);
    if (!attempt) return this.#closed(record) ?? this.#form(200, record, context);
    return this.#afterAttempt(record, context, attempt, 200);
  }

  /** POST: pays the link as the form says, once per form token. */
  async pay({ request, url, params, origin }: LinkPageRequest): Promise<Response> {
    const record = this.#links.find(params.paymentLinkId);
    if (!record) return paymentLinkNotFound();
    const context: PageContext = { url, deviceType: deviceTypeOf(request) };
    const form = await readFormPost(request, this.#maxBodyBytes);
    const given = form.get('formToken') ?? '';
    const token = FORM_TOKEN.test(given) ? given : newFormToken();
    // The same form sent again (a double click, a reload) is the same attempt, whatever it says.
    const earlier = this.#links.attempt(record, token);
    if (earlier) {
      const attempt = await earlier.catch(() => undefined);
      if (attempt) return seeOther(`${url.pathname}?${ATTEMPT_PARAM}=${encodeURIComponent(attempt.token)}`);
    }
    const closed = this.#closed(record);
    if (closed) return closed;

    const { payment, values, errors } = readPaymentForm(form, {
      offered: this.#offeredMethods(record, context.deviceType),
      installmentPeriods: this.#links.installmentPeriods(record),
      collectPhoneNumber: record.link.collectPhoneNumber === true,
      collectDeliveryAddress: record.link.collectDeliveryAddress === true,
      deviceType: context.deviceType,
      now: this.#now(),
    });
    if (!payment) {
      return this.#form(400, record, context, { values, errors, formToken: token, notice: { kind: 'error', text: 'Check the fields marked below.' } });
    }

    const returnUrl = `${origin}${url.pathname}?${ATTEMPT_PARAM}=${encodeURIComponent(token)}`;
    let attempt: PaymentLinkAttempt;
    try {
      attempt = await this.#links.pay(record, token, payment, origin, returnUrl);
    } catch (error) {
      if (!(error instanceof SandboxError) || error.status !== 400) throw error;
      const text = error.message.replace(/^inputs are failing validation; /, '');
      return this.#form(400, record, context, { values, notice: { kind: 'error', text: `The payment was refused: ${text}.` } });
    }
    if (attempt.stepUrl) return seeOther(attempt.stepUrl);
    if (attempt.qr) return seeOther(`${url.pathname}?${ATTEMPT_PARAM}=${encodeURIComponent(token)}`);
    return this.#afterAttempt(record, context, attempt, 402);
  }

  /** The page for an attempt whose charge exists: paid, still waiting, or failed. */
  #afterAttempt(record: PaymentLinkRecord, context: PageContext, attempt: PaymentLinkAttempt, failedStatus: number): Response {
    const charge = this.#payments.store.charges.get(attempt.chargeId)?.charge;
    if (charge && record.paidByChargeId === charge.chargeId) return this.#paid(record);
    const closed = this.#closed(record);
    if (closed || !charge) return closed ?? this.#form(200, record, context);
    if (charge.status === 'FAILED') {
      const reason = FAILURE_MESSAGES[charge.failureCode] ?? PROCESSING_FAILED;
      const text = `${reason} (${charge.failureCode}) Nothing was charged: try again, or choose another method.`;
      return this.#form(failedStatus, record, context, { notice: { kind: 'error', text } });
    }
    if (attempt.qr) {
      if (Date.parse(attempt.qr.expiry) <= this.#now().getTime()) {
        return this.#form(200, record, context, { notice: { kind: 'error', text: 'The PromptPay QR code expired before it was paid. Choose a method to pay again.' } });
      }
      const self = context.url.pathname;
      return pageResponse(
        200,
        renderPaymentLinkQrPage({
          stylesheetHrefs: STYLESHEETS,
          order: this.#orderView(record),
          qr: attempt.qr,
          checkUrl: `${self}?${ATTEMPT_PARAM}=${encodeURIComponent(attempt.token)}`,
          payerUrl: `${SANDBOX_PAGES_PATH}/promptpay?rawData=${encodeURIComponent(attempt.qr.rawData)}`,
          payAnotherWayUrl: self,
          cancelUrl: record.link.cancelUrl ?? null,
        }),
      );
    }
    const notice: PaymentLinkNotice = { kind: 'info', text: 'Your last payment is still waiting for you to finish it.' };
    if (attempt.stepUrl) notice.link = { href: attempt.stepUrl, label: 'Continue that payment' };
    return this.#form(200, record, context, { notice });
  }

  /** The answer for a link that cannot be paid now, or undefined while it is ACTIVE. */
  #closed(record: PaymentLinkRecord): Response | undefined {
    const status = this.#links.status(record);
    if (status === 'ACTIVE') return undefined;
    const [httpStatus, title, message] =
      status === 'PAID'
        ? [409, 'This link has already been paid', 'A payment link can be paid only once, and this one has been. Nothing more is due.']
        : status === 'EXPIRED'
          ? [410, 'This payment link has expired', 'It can no longer be paid. Ask the shop for a new link.']
          : [410, 'This payment link is no longer available', 'The shop has turned it off, so it can no longer be paid.'];
    const tone = status === 'PAID' ? 'succeeded' : 'failed';
    const view = { stylesheetHrefs: STYLESHEETS, order: this.#orderView(record), tone, title, message, continueUrl: record.link.cancelUrl ?? null } as const;
    return pageResponse(httpStatus, renderPaymentLinkStatusPage(view));
  }

  /** After the link's payment: back to the shop, or a page saying so when the link has no redirectUrl. */
  #paid(record: PaymentLinkRecord): Response {
    if (record.link.redirectUrl) return seeOther(record.link.redirectUrl);
    const message = 'Thank you: your payment succeeded. You can close this page.';
    const view = { stylesheetHrefs: STYLESHEETS, order: this.#orderView(record), tone: 'succeeded', title: 'Payment received', message } as const;
    return pageResponse(200, renderPaymentLinkStatusPage(view));
  }

  #form(
    status: number,
    record: PaymentLinkRecord,
    context: PageContext,
    extra: { values?: PaymentLinkValues; errors?: PaymentLinkErrors; notice?: PaymentLinkNotice; formToken?: string } = {},
  ): Response {
    const offered = new Set<string>(this.#offeredMethods(record, context.deviceType));
    const groups: PaymentMethodGroupView[] = LINK_SETTING_MEMBERS.map((member) => ({
      ...(GROUP_HEADINGS[member] ? { heading: GROUP_HEADINGS[member] } : {}),
      methods: LINK_SETTING_METHODS[member].filter((method) => offered.has(method)),
    })).filter((group) => group.methods.length > 0);
    // Installments alone, with every enabled period above the amount, leave nothing to pay with.
    const notice = extra.notice ?? (groups.length === 0 ? NOTHING_OFFERED : undefined);
    const view: PaymentLinkFormView = {
      stylesheetHrefs: STYLESHEETS,
      order: this.#orderView(record),
      action: context.url.pathname,
      formToken: extra.formToken ?? newFormToken(),
      groups,
      installmentPeriods: this.#links.installmentPeriods(record),
      collectPhoneNumber: record.link.collectPhoneNumber === true,
      collectDeliveryAddress: record.link.collectDeliveryAddress === true,
      cancelUrl: record.link.cancelUrl ?? null,
      values: { phoneCountryCode: '+66', country: 'THA', ...extra.values },
      errors: extra.errors ?? {},
      testCards: SANDBOX_TEST_CARDS.map(({ number, description }) => ({ number, description })),
      ...(notice ? { notice } : {}),
    };
    return pageResponse(status, renderPaymentLinkPage(view));
  }

  /** The link's enabled methods a payer on `deviceType` can use (banking apps that need a phone only on one). */
  #offeredMethods(record: PaymentLinkRecord, deviceType: DeviceType): PaymentLinkMethod[] {
    return this.#links
      .enabledMethods(record)
      .filter((method) => deviceType !== 'WEB' || !isPhoneOnly(method))
      .filter((method) => method !== 'CARD_INSTALLMENTS' || this.#links.installmentPeriods(record).length > 0);
  }

  #orderView(record: PaymentLinkRecord): PaymentLinkOrderView {
    const { order } = record.link;
    const merchantName = this.#links.merchantOf(record)?.name ?? SANDBOX_DEFAULTS.merchantName;
    const description = order.description ?? '';
    return {
      merchantName,
      // The description is optional; the page's heading then names who is paid.
      description: description === '' ? `Payment to ${merchantName}` : description,
      referenceId: order.referenceId ?? null,
      amountSatang: order.netAmount,
      currency: order.currency,
      items: (order.orderItems ?? []).map((item) => ({
        itemName: item.itemName ?? '',
        description: item.description ?? null,
        quantity: item.quantity ?? 1,
        priceSatang: item.price ?? 0,
      })),
      expiresAt: record.link.expiresAt ?? null,
    };
  }
}

/** A fresh token for a form on a link's page. */
function newFormToken(): string {
  return newId('pla_', 20);
}
