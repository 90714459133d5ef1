import type { InstallmentPeriod } from '../core/constants.js';
import { detectCardBrand, isExpiryInFuture, normalizeDigits, passesLuhn, securityCodeLength } from '../core/card.js';
import type { CustomerRequest } from '../core/schemas/common.js';
import type { DeviceType } from '../core/schemas/payment-method.js';
import { SANDBOX_DEFAULTS, SANDBOX_TEST_CARDS } from './defaults.js';
import { PAGE_HEADERS, SANDBOX_PAGES_PATH } from './http/page-layout.js';
import {
  PAYMENT_LINK_PAGES_CSS,
  renderPaymentLinkPage,
  renderPaymentLinkQrPage,
  renderPaymentLinkStatusPage,
  type PaymentLinkField,
  type PaymentLinkFormView,
  type PaymentLinkNotice,
  type PaymentLinkOrderView,
  type PaymentMethodGroupView,
} from './payment-link-pages.js';
import {
  LINK_SETTING_MEMBERS,
  LINK_SETTING_METHODS,
  PAYMENT_LINK_PAGES_PATH,
  type LinkSettingMember,
  type PaymentLinkAttempt,
  type PaymentLinkMethod,
  type PaymentLinkPayment,
  type PaymentLinkRecord,
  type SandboxPaymentLinks,
} from './payment-links.js';
import { renderErrorPage } from './string-pages.js';
import type { SandboxPayments } from './charges/sandbox-payments.js';
import { readText } from './http/read-body.js';
import { SandboxError } from './http/sandbox-error.js';

const STYLESHEETS = [`${SANDBOX_PAGES_PATH}/style.css`, `${PAYMENT_LINK_PAGES_PATH}/style.css`];

/** Headings of the method groups whose methods' own names do not say what they are. */
const GROUP_HEADINGS: Readonly<Partial<Record<LinkSettingMember, string>>> = {
  eWallets: 'E-wallets',
  mobileBanking: 'Mobile banking',
  buyNowPayLater: 'Buy now, pay later',
};

/** Mobile banking apps the service takes only from a phone (deviceType ANDROID or IOS). */
const PHONE_ONLY_METHODS: ReadonlySet<string> = new Set(['BANGKOK_BANK_APP', 'KRUNGSRI_APP']);

const FAILURE_MESSAGES: Readonly<Record<string, string>> = {
  CH_INSUFFICIENT_FUNDS: 'The card has insufficient funds.',
  CH_AUTHENTICATION_FAILED: 'The payment could not be verified.',
  CH_PROCESSING_FAILED: 'The payment could not be processed.',
};

/** Where the charge's hosted steps send the payer back to: the link's page, naming the attempt. */
const ATTEMPT_PARAM = 'attempt';

type Values = Partial<Record<PaymentLinkField, string>>;
type Errors = Partial<Record<PaymentLinkField, string>>;

/** The request a page answers, as far as the page cares. */
interface PageContext {
  url: URL;
  /** From the User-Agent: the banking apps that need a phone are offered only on one. */
  deviceType: DeviceType;
}

/**
 * Serves the hosted pay page of every payment link at `{PAYMENT_LINK_PAGES_PATH}/{paymentLinkId}`
 * (its stylesheet next to it). GET shows the order and a form; POST pays, by creating a real
 * charge of the link, then:
 * - a card that succeeds at once: the link is PAID and the payer goes (303) to `redirectUrl`, or
 *   sees a "payment received" page when the link has none;
 * - a card that fails: the form again, 402, saying why; the link stays ACTIVE for another try;
 * - 3-D Secure, the force page, wallets and banking apps: 303 to that hosted step, which sends
 *   the payer back here (`?attempt=`), where the outcome is shown as above;
 * - PromptPay: 303 to the attempt's QR page (`?attempt=`), paid on the PromptPay payer simulator.
 *
 * A link that is not ACTIVE refuses to pay: 409 when PAID, 410 when EXPIRED or DISABLED, 404 for
 * an unknown id. Phone and address are checked here (the number in digits, Thai numbers without
 * their leading 0, the country code without "+"; the address complete, with a three-letter
 * country and a five-digit postcode in Thailand) and reach the charge as `customer`.
 */
export class PaymentLinkPages {
  readonly #links: SandboxPaymentLinks;
  readonly #payments: SandboxPayments;
  readonly #now: () => Date;
  readonly #maxBodyBytes: number;
  readonly #publicUrl: string | undefined;

  constructor(options: { links: SandboxPaymentLinks; payments: SandboxPayments; now: () => Date; maxBodyBytes: number; publicUrl?: string | undefined }) {
    this.#links = options.links;
    this.#payments = options.payments;
    this.#now = options.now;
    this.#maxBodyBytes = options.maxBodyBytes;
    this.#publicUrl = options.publicUrl?.replace(/\/+$/, '');
  }

  /** Answers a request for a payment link page, or `undefined` when the path is not one. */
  async handle(request: Request, url: URL): Promise<Response | undefined> {
    const path = url.pathname;
    if (!path.startsWith(`${PAYMENT_LINK_PAGES_PATH}/`)) return undefined;
    const rest = path.slice(PAYMENT_LINK_PAGES_PATH.length + 1);
    this.#only(request, rest === 'style.css' ? ['GET'] : ['GET', 'POST']);
    if (rest === 'style.css') {
      return new Response(PAYMENT_LINK_PAGES_CSS, {
        headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' },
      });
    }
    const record = /^[^/]+$/.test(rest) ? this.#links.find(safeDecode(rest)) : undefined;
    if (!record) {
      return page(404, renderErrorPage({ stylesheetHref: STYLESHEETS[0]!, title: 'Payment link not found', message: 'There is no payment link at this address. Check the link you were sent.' }));
    }
    const context: PageContext = { url, deviceType: deviceTypeOf(request) };
    return request.method === 'GET' ? this.#show(record, context) : this.#pay(request, record, context);
  }

  async #show(record: PaymentLinkRecord, context: PageContext): Promise<Response> {
    const token = context.url.searchParams.get(ATTEMPT_PARAM);
    const attempt = token === null ? undefined : await this.#links.attempt(record, token)?.catch(() => undefined);
    if (!attempt) return this.#closed(record) ?? this.#form(200, record, context);
    return this.#afterAttempt(record, context, attempt, 200);
  }

  /** The page for an attempt whose charge exists: paid, still waiting, or failed. */
  #afterAttempt(record: PaymentLinkRecord, context: PageContext, attempt: PaymentLinkAttempt, failedStatus: number): Response {
    const charge = this.#payments.store.charges.get(attempt.chargeId)?.charge;
    if (charge && record.paidByChargeId === charge.chargeId) return this.#paid(record);
    const closed = this.#closed(record);
    if (closed || !charge) return closed ?? this.#form(200, record, context);
    if (charge.status === 'FAILED') {
      const reason = FAILURE_MESSAGES[charge.failureCode ?? ''] ?? FAILURE_MESSAGES.CH_PROCESSING_FAILED!;
      const text = `${reason} (${charge.failureCode}) Nothing was charged: try again, or choose another method.`;
      return this.#form(failedStatus, record, context, { notice: { kind: 'error', text } });
    }
    if (attempt.qr) {
      if (Date.parse(attempt.qr.expiry) <= this.#now().getTime()) {
        return this.#form(200, record, context, { notice: { kind: 'error', text: 'The PromptPay QR code expired before it was paid. Choose a method to pay again.' } });
      }
      const self = context.url.pathname;
      return page(
        200,
        renderPaymentLinkQrPage({
          stylesheetHrefs: STYLESHEETS,
          order: orderView(record, this.#links),
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

  async #pay(request: Request, record: PaymentLinkRecord, context: PageContext): Promise<Response> {
    const { url, deviceType } = context;
    const form = await this.#readForm(request);
    const given = form.get('formToken') ?? '';
    const token = this.#links.isFormToken(given) ? given : this.#links.newFormToken();
    // The same form sent again (a double click, a reload) is the same attempt, whatever it says.
    const earlier = this.#links.attempt(record, token);
    if (earlier) {
      const attempt = await earlier.catch(() => undefined);
      if (attempt) return seeOther(`${url.pathname}?${ATTEMPT_PARAM}=${encodeURIComponent(attempt.token)}`);
    }
    const closed = this.#closed(record);
    if (closed) return closed;

    const { payment, values, errors } = this.#readPayment(record, form, deviceType);
    if (!payment) {
      return this.#form(400, record, context, { values, errors, formToken: token, notice: { kind: 'error', text: 'Check the fields marked below.' } });
    }

    const origin = this.#publicUrl ?? url.origin;
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

  /** The payment the form asks for, or the errors of its fields; `values` echo what may be shown again. */
  #readPayment(record: PaymentLinkRecord, form: URLSearchParams, deviceType: DeviceType): { payment?: PaymentLinkPayment; values: Values; errors: Errors } {
    const values: Values = {};
    const errors: Errors = {};
    const read = (name: PaymentLinkField) => {
      const value = (form.get(name) ?? '').trim();
      values[name] = value;
      return value;
    };
    const chosen = read('method');
    const method = this.#offeredMethods(record, deviceType).find((candidate) => candidate === chosen);
    if (chosen === '') errors.method = 'Choose how to pay.';
    else if (!method) errors.method = 'This payment method is not offered for this payment.';

    const customer: CustomerRequest = {};
    const phone = record.link.collectPhoneNumber ? readPhone(read, errors) : undefined;
    if (phone) customer.primaryPhone = phone;
    if (record.link.collectDeliveryAddress) {
      const address = readAddress(read, errors);
      if (address) customer.deliveryAddress = { ...address, ...(phone ? { phone } : {}) };
    }
    if (!method) return { values, errors };
    const payment: PaymentLinkPayment = { method };
    if (method === 'CARD' || method === 'CARD_INSTALLMENTS') {
      const card = readCard(form, read, errors, this.#now());
      if (card) payment.card = card;
    }
    if (method === 'CARD_INSTALLMENTS') {
      const period = Number(read('installmentPeriod')) as InstallmentPeriod;
      if (this.#links.installmentPeriods(record).includes(period)) payment.installmentPeriod = period;
      else errors.installmentPeriod = 'Choose one of the installment plans offered.';
    }
    if (PHONE_ONLY_METHODS.has(method) && deviceType !== 'WEB') payment.deviceType = deviceType;
    if (customer.primaryPhone || customer.deliveryAddress) payment.customer = customer;
    return Object.keys(errors).length > 0 ? { values, errors } : { payment, values, errors };
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
    return page(
      httpStatus,
      renderPaymentLinkStatusPage({
        stylesheetHrefs: STYLESHEETS,
        order: orderView(record, this.#links),
        tone: status === 'PAID' ? 'succeeded' : 'failed',
        title,
        message,
        continueUrl: record.link.cancelUrl ?? null,
      }),
    );
  }

  /** After the link's payment: back to the shop, or a page saying so when the link has no redirectUrl. */
  #paid(record: PaymentLinkRecord): Response {
    if (record.link.redirectUrl) return seeOther(record.link.redirectUrl);
    return page(
      200,
      renderPaymentLinkStatusPage({
        stylesheetHrefs: STYLESHEETS,
        order: orderView(record, this.#links),
        tone: 'succeeded',
        title: 'Payment received',
        message: 'Thank you: your payment succeeded. You can close this page.',
      }),
    );
  }

  #form(
    status: number,
    record: PaymentLinkRecord,
    context: PageContext,
    extra: { values?: Values; errors?: Errors; notice?: PaymentLinkNotice; formToken?: string } = {},
  ): Response {
    const offered = new Set<string>(this.#offeredMethods(record, context.deviceType));
    const groups: PaymentMethodGroupView[] = LINK_SETTING_MEMBERS.map((member) => ({
      ...(GROUP_HEADINGS[member] ? { heading: GROUP_HEADINGS[member] } : {}),
      methods: LINK_SETTING_METHODS[member].filter((method) => offered.has(method)),
    })).filter((group) => group.methods.length > 0);
    const view: PaymentLinkFormView = {
      stylesheetHrefs: STYLESHEETS,
      order: orderView(record, this.#links),
      action: context.url.pathname,
      formToken: extra.formToken ?? this.#links.newFormToken(),
      groups,
      installmentPeriods: this.#links.installmentPeriods(record),
      collectPhoneNumber: record.link.collectPhoneNumber === true,
      collectDeliveryAddress: record.link.collectDeliveryAddress === true,
      cancelUrl: record.link.cancelUrl ?? null,
      values: { phoneCountryCode: '+66', country: 'THA', ...extra.values },
      errors: extra.errors ?? {},
      testCards: SANDBOX_TEST_CARDS.map(({ number, description }) => ({ number, description })),
      ...(extra.notice ? { notice: extra.notice } : {}),
    };
    return page(status, renderPaymentLinkPage(view));
  }

  /** The link's enabled methods a payer on `deviceType` can use (banking apps that need a phone only on one). */
  #offeredMethods(record: PaymentLinkRecord, deviceType: DeviceType): PaymentLinkMethod[] {
    return this.#links
      .enabledMethods(record)
      .filter((method) => deviceType !== 'WEB' || !PHONE_ONLY_METHODS.has(method))
      .filter((method) => method !== 'CARD_INSTALLMENTS' || this.#links.installmentPeriods(record).length > 0);
  }

  async #readForm(request: Request): Promise<URLSearchParams> {
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

function orderView(record: PaymentLinkRecord, links: SandboxPaymentLinks): PaymentLinkOrderView {
  const { order } = record.link;
  return {
    merchantName: links.merchantOf(record)?.name ?? SANDBOX_DEFAULTS.merchantName,
    description: order.description ?? '',
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

/** The device a payer is on, from the User-Agent: banking apps that need a phone are offered only there. */
function deviceTypeOf(request: Request): DeviceType {
  const agent = request.headers.get('user-agent') ?? '';
  if (/Android/i.test(agent)) return 'ANDROID';
  if (/iPhone|iPad|iPod/i.test(agent)) return 'IOS';
  return 'WEB';
}

function readPhone(read: (name: PaymentLinkField) => string, errors: Errors): { countryCode: string; number: string } | undefined {
  const countryCode = read('phoneCountryCode').replace(/^\+/, '');
  let number = normalizeDigits(read('phoneNumber')).replace(/[().]/g, '');
  if (!/^\d{1,3}$/.test(countryCode)) errors.phoneCountryCode = 'Enter the country code, e.g. +66.';
  if (number === '') {
    errors.phoneNumber = 'Enter your phone number.';
    return undefined;
  }
  if (countryCode === '66' && number.startsWith('0')) number = number.slice(1);
  if (!/^\d{6,14}$/.test(number)) {
    errors.phoneNumber = 'Enter a phone number of 6 to 14 digits.';
    return undefined;
  }
  return errors.phoneCountryCode ? undefined : { countryCode, number };
}

function readAddress(read: (name: PaymentLinkField) => string, errors: Errors) {
  const contactName = read('contactName');
  const streetAddress = read('streetAddress');
  const city = read('city');
  const postCode = read('postCode');
  const country = read('country').toUpperCase();
  const before = Object.keys(errors).length;
  if (contactName === '') errors.contactName = 'Enter the name of the recipient.';
  else if (contactName.length > 256) errors.contactName = 'Use at most 256 characters.';
  if (streetAddress === '') errors.streetAddress = 'Enter the street address.';
  else if (streetAddress.length > 512) errors.streetAddress = 'Use at most 512 characters.';
  if (city === '') errors.city = 'Enter the city or province.';
  else if (city.length > 128) errors.city = 'Use at most 128 characters.';
  if (!/^[A-Z]{3}$/.test(country)) errors.country = 'Enter a three-letter country code, e.g. THA.';
  if (country === 'THA' ? !/^\d{5}$/.test(postCode) : !/^[A-Za-z0-9 -]{2,10}$/.test(postCode)) {
    errors.postCode = country === 'THA' ? 'Enter the five-digit postcode.' : 'Enter the postcode.';
  }
  if (Object.keys(errors).length > before) return undefined;
  return { contactName, address: { streetAddress, city, postCode, country } };
}

function readCard(form: URLSearchParams, read: (name: PaymentLinkField) => string, errors: Errors, now: Date) {
  // The number and the security code are read but never written back into the page.
  const pan = normalizeDigits(form.get('cardNumber') ?? '');
  const securityCode = (form.get('securityCode') ?? '').trim();
  const cardHolderName = read('cardHolderName');
  const monthText = read('expiryMonth');
  const yearText = read('expiryYear');
  const before = Object.keys(errors).length;
  if (cardHolderName === '') errors.cardHolderName = 'Enter the name on the card.';
  else if (cardHolderName.length > 100) errors.cardHolderName = 'Use at most 100 characters.';
  if (pan === '') errors.cardNumber = 'Enter the card number.';
  else if (!/^\d{12,19}$/.test(pan) || !passesLuhn(pan)) errors.cardNumber = 'Enter a valid card number.';
  const expiryMonth = Number(monthText);
  const fullYear = /^\d{4}$/.test(yearText) ? Number(yearText) : 2000 + Number(yearText);
  if (!/^\d{1,2}$/.test(monthText) || expiryMonth < 1 || expiryMonth > 12) errors.expiryMonth = 'Enter the month, 01 to 12.';
  if (!/^(\d{2}|20\d{2})$/.test(yearText)) errors.expiryYear = 'Enter the year, e.g. 29.';
  else if (!errors.expiryMonth && !isExpiryInFuture(expiryMonth, fullYear % 100, now)) errors.expiryYear = 'This card has expired.';
  const length = securityCodeLength(detectCardBrand(pan));
  if (!new RegExp(`^\\d{${length}}$`).test(securityCode)) errors.securityCode = `Enter the ${length}-digit security code.`;
  if (Object.keys(errors).length > before) return undefined;
  return { pan, expiryMonth, expiryYear: fullYear % 100, cardHolderName, securityCode };
}

function page(status: number, html: string): Response {
  return new Response(html, { status, headers: PAGE_HEADERS });
}

function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
