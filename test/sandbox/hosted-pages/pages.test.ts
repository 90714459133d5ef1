import { describe, expect, it } from 'vitest';
import { formatAmount } from '../../../src/core/money.js';
import { renderAuthorizePage as authorizePage } from '../../../src/sandbox/hosted-pages/authorize-page.js';
import type { ChargeView } from '../../../src/sandbox/hosted-pages/charge-summary.js';
import { renderForcePage as forcePage } from '../../../src/sandbox/hosted-pages/force-page.js';
import { renderOtpPage as otpPage } from '../../../src/sandbox/hosted-pages/otp-page.js';
import { SANDBOX_PAGES_CSS } from '../../../src/sandbox/hosted-pages/page-stylesheet.js';
import { renderPromptPayPayerPage as promptPayPayerPage, type PendingQrCharge } from '../../../src/sandbox/hosted-pages/promptpay-payer-page.js';
import { renderResultPage as resultPage } from '../../../src/sandbox/hosted-pages/result-page.js';
import { escapeText as escapeHtml } from '../../../src/sandbox/http/html.js';
import { paymentMethodLabel, renderErrorPage as errorPage } from '../../../src/sandbox/http/page-layout.js';

// The pages are templates (`Html`); the assertions read their markup.
const renderOtpPage = (...args: Parameters<typeof otpPage>) => String(otpPage(...args));
const renderForcePage = (...args: Parameters<typeof forcePage>) => String(forcePage(...args));
const renderAuthorizePage = (...args: Parameters<typeof authorizePage>) => String(authorizePage(...args));
const renderPromptPayPayerPage = (...args: Parameters<typeof promptPayPayerPage>) => String(promptPayPayerPage(...args));
const renderResultPage = (...args: Parameters<typeof resultPage>) => String(resultPage(...args));
const renderErrorPage = (...args: Parameters<typeof errorPage>) => String(errorPage(...args));

const SCRIPT = '<script>alert(1)</script>';
const BREAKOUT = '"><img src=x onerror=alert(1)>';
const QUOTES = `it's a "quote" & more`;
const HOSTILE = `${SCRIPT}${BREAKOUT}${QUOTES}`;

const STYLESHEET = 'https://sandbox.test/pages/sandbox.css';
const ACTION = 'https://sandbox.test/pages/charges/ch_1/otp';
const CONTINUE = 'https://merchant.test/return?order=1';

const charge: ChargeView = {
  chargeId: 'ch_test0000000000000000001',
  amountSatang: 123456,
  currency: 'THB',
  referenceId: HOSTILE,
  paymentMethodType: 'TRUE_MONEY',
  status: 'PENDING',
};

const failedCharge: ChargeView = { ...charge, status: 'FAILED', failureCode: HOSTILE };

const payable: PendingQrCharge = {
  chargeId: 'ch_payable000000000000001',
  amountSatang: 5000,
  rawData: `00020101021230${HOSTILE}`,
  expiresAt: '2030-01-01T00:00:00.000Z',
  expired: false,
};

const expired: PendingQrCharge = {
  chargeId: 'ch_expired000000000000001',
  amountSatang: 7000,
  rawData: '000201010212expired',
  expiresAt: '2020-01-01T00:00:00.000Z',
  expired: true,
};

/** Every page, rendered with hostile text wherever a caller can put text. */
const pages: Record<string, string> = {
  otp: renderOtpPage({ stylesheetHref: STYLESHEET, charge, action: ACTION }),
  'otp with error': renderOtpPage({ stylesheetHref: STYLESHEET, charge, action: ACTION, error: HOSTILE }),
  force: renderForcePage({ stylesheetHref: STYLESHEET, charge, action: ACTION }),
  authorize: renderAuthorizePage({ stylesheetHref: STYLESHEET, charge, action: ACTION, methodLabel: HOSTILE }),
  'promptpay payer with error': renderPromptPayPayerPage({
    stylesheetHref: STYLESHEET,
    action: ACTION,
    rawData: HOSTILE,
    message: { kind: 'error', text: HOSTILE },
    pending: [payable, expired],
  }),
  'promptpay payer with success': renderPromptPayPayerPage({
    stylesheetHref: STYLESHEET,
    action: ACTION,
    message: { kind: 'success', text: HOSTILE },
    pending: [],
  }),
  result: renderResultPage({ stylesheetHref: STYLESHEET, title: HOSTILE, message: HOSTILE, charge: failedCharge, continueUrl: CONTINUE }),
  error: renderErrorPage({ stylesheetHref: STYLESHEET, title: HOSTILE, message: HOSTILE }),
};

const pageEntries = Object.entries(pages);

interface Tag {
  name: string;
  attrs: Map<string, string>;
  raw: string;
}

/** Opening tags of one element name, with their attributes (the pages quote every value). */
function tags(html: string, name: string): Tag[] {
  return [...html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'gi'))].map((match) => {
    const attrs = new Map<string, string>();
    for (const attr of (match[1] ?? '').matchAll(/([^\s=]+)(?:="([^"]*)")?/g)) {
      attrs.set((attr[1] ?? '').toLowerCase(), attr[2] ?? '');
    }
    return { name, attrs, raw: match[0] };
  });
}

/** The element carrying `id`, whatever its name. */
function elementById(html: string, id: string): { tag: string; content: string } | undefined {
  const match = new RegExp(`<(\\w+)\\b[^>]*\\bid="${id}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  return match ? { tag: match[0], content: match[2] ?? '' } : undefined;
}

/** List items of the pending QR charges, by charge id. */
function pendingItem(html: string, chargeId: string): string {
  const item = [...html.matchAll(/<li\b[\s\S]*?<\/li>/g)].map((m) => m[0]).find((li) => li.includes(chargeId));
  if (!item) throw new Error(`no pending item for ${chargeId}`);
  return item;
}

describe('escapeHtml', () => {
  it('escapes the five characters that can end text or an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});

describe.each(pageEntries)('the %s page', (_name, html) => {
  it('is a complete English document with charset, viewport, title and the stylesheet', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toContain(`<link rel="stylesheet" href="${escapeHtml(STYLESHEET)}">`);
  });

  it('has exactly one h1, one main landmark and the sandbox banner', () => {
    expect(tags(html, 'h1')).toHaveLength(1);
    expect(tags(html, 'main')).toHaveLength(1);
    expect(html).toContain('Sandbox — no real money moves');
  });

  it('never lets hostile text out of its escaping', () => {
    expect(html).not.toContain(SCRIPT);
    expect(html).not.toContain(BREAKOUT);
    expect(html).not.toContain('<img');
    expect(html).not.toContain(QUOTES);
    expect(html).toContain(escapeHtml(HOSTILE));
  });

  it('contains no script, no inline style and no style element', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\sstyle=/i);
    expect(html).not.toMatch(/<style/i);
  });

  it('links to no URL but the stylesheet, the action and the continue URL it was given', () => {
    const allowed = [STYLESHEET, ACTION, CONTINUE].map(escapeHtml);
    const urls = html.match(/https?:\/\/[^\s"'<>]*/gi) ?? [];
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(allowed).toContain(url);
  });

  it('posts every form to the given action', () => {
    for (const form of tags(html, 'form')) {
      expect(form.attrs.get('method')).toBe('post');
      expect(form.attrs.get('action')).toBe(escapeHtml(ACTION));
    }
  });

  it('labels every visible field with a label tied by for and id', () => {
    const fields = [...tags(html, 'input'), ...tags(html, 'textarea')].filter((field) => field.attrs.get('type') !== 'hidden');
    const labelTargets = tags(html, 'label').map((label) => label.attrs.get('for'));
    for (const field of fields) {
      const id = field.attrs.get('id');
      expect(id).toBeTruthy();
      expect(labelTargets).toContain(id);
    }
    for (const target of labelTargets) {
      expect(fields.map((field) => field.attrs.get('id'))).toContain(target);
    }
  });
});

describe('the OTP page', () => {
  const [input] = tags(pages['otp with error'] ?? '', 'input');

  it('asks for a numeric one-time code of at most six digits', () => {
    expect(input?.attrs.get('name')).toBe('otp');
    expect(input?.attrs.get('inputmode')).toBe('numeric');
    expect(input?.attrs.get('autocomplete')).toBe('one-time-code');
    expect(input?.attrs.get('pattern')).toBe('[0-9]*');
    expect(input?.attrs.get('maxlength')).toBe('6');
    expect(input?.attrs.has('required')).toBe(true);
  });

  it('tells the tester which code succeeds and offers to verify and pay', () => {
    expect(pages.otp).toContain('Sandbox: 123456 succeeds, any other code fails.');
    expect(pages.otp).toMatch(/<button type="submit"[^>]*>Verify and pay<\/button>/);
  });

  it('ties the error to the input through aria-describedby, an alert and aria-invalid', () => {
    const html = pages['otp with error'] ?? '';
    expect(input?.attrs.get('aria-invalid')).toBe('true');
    const described = (input?.attrs.get('aria-describedby') ?? '').split(/\s+/).map((id) => elementById(html, id));
    const alert = described.find((element) => element?.tag.includes('role="alert"'));
    expect(alert?.content).toBe(escapeHtml(HOSTILE));
  });

  it('shows no alert and marks nothing invalid while there is no error', () => {
    const [plainInput] = tags(pages.otp ?? '', 'input');
    expect(pages.otp).not.toContain('role="alert"');
    expect(plainInput?.attrs.has('aria-invalid')).toBe(false);
  });

  it('shows the amount and the reference of the charge', () => {
    expect(pages.otp).toContain('1,234.56');
    expect(pages.otp).toContain(escapeHtml(HOSTILE));
  });
});

describe('the force page', () => {
  it('offers one button to make the payment succeed and one to make it fail', () => {
    const buttons = tags(pages.force ?? '', 'button');
    expect(buttons.map((button) => [button.attrs.get('name'), button.attrs.get('value')])).toEqual([
      ['outcome', 'succeed'],
      ['outcome', 'fail'],
    ]);
    expect(pages.force).toContain('Make payment succeed');
    expect(pages.force).toContain('Make payment fail');
  });
});

describe('the authorize page', () => {
  it('asks whether to pay the amount to the merchant reference with the method', () => {
    const html = renderAuthorizePage({
      stylesheetHref: STYLESHEET,
      charge: { ...charge, referenceId: 'ORDER-42' },
      action: ACTION,
      methodLabel: 'TrueMoney',
    });
    expect(html).toMatch(/<h1>Pay ฿1,234\.56 to ORDER-42 with TrueMoney\?<\/h1>/);
  });

  it('offers approve and decline as decisions', () => {
    const buttons = tags(pages.authorize ?? '', 'button');
    expect(buttons.map((button) => [button.attrs.get('name'), button.attrs.get('value')])).toEqual([
      ['decision', 'approve'],
      ['decision', 'decline'],
    ]);
  });
});

describe('the PromptPay payer page', () => {
  const html = pages['promptpay payer with error'] ?? '';

  it('prefills the payload it was given and submits it as rawData', () => {
    expect(html).toMatch(new RegExp(`<textarea [^>]*name="rawData"[^>]*>${escapeRegExp(escapeHtml(HOSTILE))}</textarea>`));
  });

  it('pays with "Pay" and declines with "Decline"', () => {
    const mainForm = html.slice(html.indexOf('<form'), html.indexOf('</form>'));
    expect(mainForm).toMatch(/name="outcome" value="succeed">Pay</);
    expect(mainForm).toMatch(/name="outcome" value="fail">Decline</);
  });

  it('announces an error as an alert tied to the payload field', () => {
    expect(html).toContain(`role="alert">${escapeHtml(HOSTILE)}</p>`);
    const [textarea] = tags(html, 'textarea');
    expect(textarea?.attrs.get('aria-describedby')).toContain('payer-message');
    expect(textarea?.attrs.get('aria-invalid')).toBe('true');
  });

  it('announces a success as a status, not an alert', () => {
    const success = pages['promptpay payer with success'] ?? '';
    expect(success).toContain(`role="status">${escapeHtml(HOSTILE)}</p>`);
    expect(success).not.toContain('role="alert"');
  });

  it('lets a payable QR charge be paid or declined in one click with its own hidden payload', () => {
    const item = pendingItem(html, payable.chargeId);
    expect(item).toContain(`<input type="hidden" name="rawData" value="${escapeHtml(payable.rawData)}">`);
    expect(item).toContain('value="succeed"');
    expect(item).toContain('value="fail"');
    expect(item).toContain('฿50.00');
  });

  it('marks an expired QR charge and gives it no pay button', () => {
    const item = pendingItem(html, expired.chargeId);
    expect(item).toContain('Expired');
    expect(item).not.toContain('value="succeed"');
    expect(item).not.toContain('<form');
  });

  it('says so when no QR charge is waiting', () => {
    expect(pages['promptpay payer with success']).toContain('No QR charges are waiting.');
    expect(pages['promptpay payer with success']).not.toMatch(/<li\b/);
  });
});

describe('the result page', () => {
  it('links prominently back to the merchant when a continue URL is given', () => {
    expect(pages.result).toContain(`<a class="button button-primary" href="${escapeHtml(CONTINUE)}">Return to the merchant</a>`);
  });

  it('shows the charge status and failure code', () => {
    expect(pages.result).toContain('>Failed</span>');
    expect(pages.result).toContain('Failure code');
  });

  it('offers no link when there is nowhere to return to', () => {
    const html = renderResultPage({ stylesheetHref: STYLESHEET, title: 'Paid', message: 'Done.', charge });
    expect(html).not.toContain('Return to the merchant');
    expect(html).not.toContain('<a ');
  });
});

describe('the stylesheet', () => {
  it('fetches nothing from anywhere', () => {
    expect(SANDBOX_PAGES_CSS).not.toMatch(/url\(|@import|https?:/i);
  });

  it('uses a Thai-friendly system font stack with a relaxed line height', () => {
    expect(SANDBOX_PAGES_CSS).toMatch(/font-family: system-ui,[^;]*"Sarabun", "Noto Sans Thai"[^;]*sans-serif;/);
    expect(SANDBOX_PAGES_CSS).toContain('line-height: 1.6;');
  });

  it('supports dark mode, reduced motion and visible focus', () => {
    expect(SANDBOX_PAGES_CSS).toContain('@media (prefers-color-scheme: dark)');
    expect(SANDBOX_PAGES_CSS).toContain('@media (prefers-reduced-motion: reduce)');
    expect(SANDBOX_PAGES_CSS).toMatch(/:focus-visible \{\s*outline: 3px solid/);
  });
});

describe('the amounts the pages show (core formatAmount)', () => {
  it('formats whole satang as baht with grouping and two decimals', () => {
    expect(formatAmount(123456, 'THB')).toContain('1,234.56');
    expect(formatAmount(100, 'THB')).toContain('1.00');
    expect(formatAmount(123456, 'THB')).toBe('฿1,234.56');
  });

  it('keeps every satang exact, including amounts that are not exact binary fractions', () => {
    expect(formatAmount(1, 'THB')).toBe('฿0.01');
    expect(formatAmount(1005, 'THB')).toBe('฿10.05');
    expect(formatAmount(1_000_000_000, 'THB')).toBe('฿10,000,000.00');
    expect(formatAmount(900_719_925_474_099, 'THB')).toBe('฿9,007,199,254,740.99');
  });
});

describe('paymentMethodLabel', () => {
  it('names known methods the way shoppers know them and passes unknown ones through', () => {
    expect(paymentMethodLabel('TRUE_MONEY')).toBe('TrueMoney');
    expect(paymentMethodLabel('NEW_WALLET')).toBe('NEW_WALLET');
    expect(paymentMethodLabel('toString')).toBe('toString');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
