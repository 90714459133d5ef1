import type { InstallmentPeriod } from '../../core/constants.js';
import { detectCardBrand, isExpiryInFuture, normalizeDigits, passesLuhn, securityCodeLength } from '../../core/card.js';
import type { CustomerRequest } from '../../core/schemas/common.js';
import { PHONE_ONLY_PAYMENT_METHOD_TYPES, type DeviceType, type PaymentMethodType } from '../../core/schemas/payment-method.js';
import type { PaymentLinkMethod } from './link-settings.js';
import type { PaymentLinkField } from './payment-link-pages.js';
import type { PaymentLinkPayment } from './payment-link-record.js';

/** What the payer typed, by field, to show again; never the card number or security code. */
export type PaymentLinkValues = Partial<Record<PaymentLinkField, string>>;
/** Why a field was refused, by field. */
export type PaymentLinkErrors = Partial<Record<PaymentLinkField, string>>;

/** Whether the service takes `method` only from a phone (deviceType ANDROID or IOS): some banking apps. */
export function isPhoneOnly(method: PaymentMethodType): boolean {
  return PHONE_ONLY_PAYMENT_METHOD_TYPES.includes(method);
}

/** What the link asks of its form, and who fills it in. */
export interface PaymentLinkFormRules {
  /** The methods the payer may choose here, in page order. */
  offered: readonly PaymentLinkMethod[];
  installmentPeriods: readonly InstallmentPeriod[];
  collectPhoneNumber: boolean;
  collectDeliveryAddress: boolean;
  deviceType: DeviceType;
  now: Date;
}

type Read = (name: PaymentLinkField) => string;

/**
 * The payment a posted pay-page form asks for, or the errors of its fields. Phone and address are
 * checked here (the number in digits, Thai numbers without their leading 0, the country code
 * without "+"; the address complete, with a three-letter country and a five-digit postcode in
 * Thailand) and become the charge's `customer`. `values` echo what may be shown again.
 */
export function readPaymentForm(form: URLSearchParams, rules: PaymentLinkFormRules): { payment?: PaymentLinkPayment; values: PaymentLinkValues; errors: PaymentLinkErrors } {
  const values: PaymentLinkValues = {};
  const errors: PaymentLinkErrors = {};
  const read: Read = (name) => {
    const value = (form.get(name) ?? '').trim();
    values[name] = value;
    return value;
  };
  const chosen = read('method');
  const method = rules.offered.find((candidate) => candidate === chosen);
  if (chosen === '') errors.method = 'Choose how to pay.';
  else if (!method) errors.method = 'This payment method is not offered for this payment.';

  const customer: CustomerRequest = {};
  const phone = rules.collectPhoneNumber ? readPhone(read, errors) : undefined;
  if (phone) customer.primaryPhone = phone;
  if (rules.collectDeliveryAddress) {
    const address = readAddress(read, errors);
    if (address) customer.deliveryAddress = { ...address, ...(phone ? { phone } : {}) };
  }
  if (!method) return { values, errors };
  const payment: PaymentLinkPayment = { method };
  if (method === 'CARD' || method === 'CARD_INSTALLMENTS') {
    const card = readCard(form, read, errors, rules.now);
    if (card) payment.card = card;
  }
  if (method === 'CARD_INSTALLMENTS') {
    const period = Number(read('installmentPeriod')) as InstallmentPeriod;
    if (rules.installmentPeriods.includes(period)) payment.installmentPeriod = period;
    else errors.installmentPeriod = 'Choose one of the installment plans offered.';
  }
  if (isPhoneOnly(method) && rules.deviceType !== 'WEB') payment.deviceType = rules.deviceType;
  if (customer.primaryPhone || customer.deliveryAddress) payment.customer = customer;
  return Object.keys(errors).length > 0 ? { values, errors } : { payment, values, errors };
}

/** The device a payer is on, from the User-Agent: banking apps that need a phone are offered only there. */
export function deviceTypeOf(request: Request): DeviceType {
  const agent = request.headers.get('user-agent') ?? '';
  if (/Android/i.test(agent)) return 'ANDROID';
  if (/iPhone|iPad|iPod/i.test(agent)) return 'IOS';
  return 'WEB';
}

function readPhone(read: Read, errors: PaymentLinkErrors): { countryCode: string; number: string } | undefined {
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

function readAddress(read: Read, errors: PaymentLinkErrors) {
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

function readCard(form: URLSearchParams, read: Read, errors: PaymentLinkErrors, now: Date) {
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
