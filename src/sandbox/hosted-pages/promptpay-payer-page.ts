import { formatAmount } from '../../core/money.js';
import { html, type Html, type HtmlValue } from '../http/html.js';
import { formatBangkokTime, renderButton, renderDocument, renderIssuer, summaryRow } from '../http/page-layout.js';
import { localeOf, payeeOf, renderChargeSummary, type ChargeView, type PageLinks } from './charge-summary.js';

/** A notice above the form: how the previous attempt went. */
export interface PayerMessage {
  kind: 'error' | 'success';
  text: string;
}

/** The button that pays by bank transfer and gets a slip, posting the same form to `slipAction`. */
function renderSlipButton(slipAction: string, label: HtmlValue, extraClass = ''): Html {
  return html`<button type="submit" class="button button-success${extraClass ? ` ${extraClass}` : ''}" formaction="${slipAction}" name="outcome" value="slip">${label}</button>`;
}

function renderNotice(message: PayerMessage | undefined): Html | undefined {
  if (!message) return undefined;
  const isError = message.kind === 'error';
  return html`<p class="notice notice-${isError ? 'error' : 'success'}" id="payer-message" role="${isError ? 'alert' : 'status'}">${message.text}</p>\n`;
}

/**
 * The PromptPay payer simulator: a stand-in for the payer's banking app that pays or declines a
 * pending QR charge by its payload (`rawData`), as if it had scanned the code. The form POSTs
 * `rawData` with `outcome=succeed|fail` to `action`; with `slipAction`, a third button posts
 * `rawData` there instead: a bank transfer that leaves the charge PENDING and hands the payer a
 * slip. `message` reports the previous attempt. It lists no charges: holding a charge's payload
 * (or its payer link, {@link renderPayerLinkPage}) is what lets a payer pay it.
 */
export function renderPromptPayPayerPage(view: PageLinks & { action: string; rawData?: string; message?: PayerMessage; slipAction?: string }): Html {
  const { action, rawData, message, slipAction } = view;
  const locale = localeOf(view);
  const words = locale.text.payer;
  const isError = message?.kind === 'error';
  const body = html`<div class="card">
${renderIssuer(words.issuer, 'P')}
<h1>${words.heading}</h1>
<p class="lede">${words.lede}</p>
${renderNotice(message)}<form method="post" action="${action}">
<div class="field">
<label for="rawData">${words.payloadLabel}</label>
<p class="hint" id="rawData-hint">${words.payloadHint}</p>
<textarea id="rawData" name="rawData" rows="4" required spellcheck="false" autocomplete="off" autocapitalize="off" aria-describedby="${isError ? 'rawData-hint payer-message' : 'rawData-hint'}"${isError && html` aria-invalid="true"`}>${rawData ?? ''}</textarea>
</div>
<div class="actions actions-pair">
${renderButton('outcome', 'succeed', words.pay, 'primary')}
${renderButton('outcome', 'fail', words.decline, 'danger')}
</div>
${slipAction && html`<div class="actions">\n${renderSlipButton(slipAction, words.slip)}\n</div>\n`}</form>
</div>
<section class="card" aria-labelledby="links-heading">
<h2 id="links-heading">${words.linksHeading}</h2>
<p class="lede">${words.linksText}</p>
</section>`;
  return renderDocument({ ...locale.document, title: words.title, stylesheetHref: view.stylesheetHref, body, bodyClass: 'page-wide' });
}

/**
 * The page of one pending QR charge, opened by its payer link: who is paid, how much, until when,
 * and Pay or Decline, posted as `outcome=succeed|fail` to `action` (the link itself). With
 * `slipAction`, a third button posts the charge's `rawData` there: a bank transfer and a slip. An
 * expired code offers no button, since the service would refuse it too.
 */
export function renderPayerLinkPage(
  view: PageLinks & { charge: ChargeView; rawData: string; expiresAt: string; expired: boolean; action: string; slipAction?: string; message?: PayerMessage },
): Html {
  const { charge, rawData, expiresAt, expired, action, slipAction, message } = view;
  const locale = localeOf(view);
  const words = locale.text.payerLink;
  const amount = formatAmount(charge.amountSatang, charge.currency, locale.lang);
  const expiry = summaryRow(locale.text.summary.qrExpires, html`<time datetime="${expiresAt}">${formatBangkokTime(expiresAt, locale.lang)}</time>`);
  const controls = expired
    ? html`<p class="notice notice-error" role="status">${locale.text.payer.expired}</p>`
    : html`<form method="post" action="${action}">
<input type="hidden" name="rawData" value="${rawData}">
<div class="actions actions-pair">
${renderButton('outcome', 'succeed', locale.text.payer.pay, 'primary')}
${renderButton('outcome', 'fail', locale.text.payer.decline, 'danger')}
</div>
${slipAction && html`<div class="actions">\n${renderSlipButton(slipAction, locale.text.payer.slip)}\n</div>\n`}</form>`;
  const body = html`<div class="card${expired ? ' tone-failed' : ''}">
${renderIssuer(locale.text.payer.issuer, 'P')}
<h1>${expired ? words.expiredHeading : words.heading(amount, payeeOf(charge, locale))}</h1>
<p class="lede">${words.lede}</p>
${renderNotice(message)}${renderChargeSummary(charge, locale, { extra: [expiry] })}
${controls}
</div>`;
  return renderDocument({ ...locale.document, title: words.title, stylesheetHref: view.stylesheetHref, body });
}
