import { stylesheetResponse } from '../http/page-layout.js';
import { apiRoute, pageRoute, type PageArea, type SandboxRoute } from '../http/route.js';
import type { SandboxPayments } from '../charges/sandbox-payments.js';
import { jsonResponse } from '../http/sandbox-error.js';
import { PAYMENT_LINK_PAGES_CSS } from './payment-link-pages-css.js';
import { paymentLinkNotFound, PaymentLinkPayPage } from './payment-link-pay-page.js';
import { PAYMENT_LINK_PAGES_PATH, type SandboxPaymentLinks } from './payment-links.js';

/**
 * The pages under {@link PAYMENT_LINK_PAGES_PATH}: an address that names no link is its 404 page,
 * and every address takes only the pay page's GET and POST.
 */
const PAYMENT_LINK_PAGES: PageArea = {
  prefix: PAYMENT_LINK_PAGES_PATH,
  notFound: () => paymentLinkNotFound(),
  methods: ['GET', 'POST'],
};

export interface PaymentLinkRoutesDeps {
  links: SandboxPaymentLinks;
  payments: SandboxPayments;
  now: () => Date;
  maxBodyBytes: number;
}

/**
 * The routes of payment links: the API (`POST /api/v1/payment-links`, `GET .../{id}`, `PATCH
 * .../{id}/disable`) and the hosted pay page of each link with its stylesheet.
 */
export function paymentLinkRoutes({ links, payments, now, maxBodyBytes }: PaymentLinkRoutesDeps): SandboxRoute[] {
  const payPage = new PaymentLinkPayPage({ links, payments, now, maxBodyBytes });
  return [
    apiRoute('POST', '/api/v1/payment-links', ({ merchant, body, origin }) => jsonResponse(201, links.create(merchant, body, origin))),
    apiRoute('GET', '/api/v1/payment-links/:id', ({ merchant, params }) => jsonResponse(200, links.get(merchant, params.id))),
    apiRoute('PATCH', '/api/v1/payment-links/:id/disable', ({ merchant, params }) => jsonResponse(200, links.disable(merchant, params.id)), { bodyless: true }),

    pageRoute(PAYMENT_LINK_PAGES, 'GET', `${PAYMENT_LINK_PAGES_PATH}/style.css`, () => stylesheetResponse(PAYMENT_LINK_PAGES_CSS)),
    pageRoute(PAYMENT_LINK_PAGES, 'GET', `${PAYMENT_LINK_PAGES_PATH}/:paymentLinkId`, (context) => payPage.show(context)),
    pageRoute(PAYMENT_LINK_PAGES, 'POST', `${PAYMENT_LINK_PAGES_PATH}/:paymentLinkId`, (context) => payPage.pay(context)),
  ];
}
