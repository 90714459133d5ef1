import { describe, expect } from 'vitest';
import type { Sandbox, SandboxOptions } from '../../../src/sandbox/index.js';
import { defaultSandboxMerchant } from '../../../src/sandbox/index.js';
import { createQrCharge } from '../../support/qr-charge.js';
import { basic, CLIENT_AUTH, ORIGIN, type SandboxClient } from '../../support/sandbox-client.js';
import { sandboxTest } from '../../support/sandbox-fixture.js';

let now = Date.now();
/** Options for a sandbox whose clock reads `now`, set to the present. */
function clockOptions(): SandboxOptions {
  now = Date.now();
  return { now: () => new Date(now) };
}

const RETURN_URL = 'https://shop.example/checkout/return?order=1';

describe('the OTP page', () => {
  sandboxTest('shows a form for the charge, and 123456 makes the charge SUCCEEDED and returns to the merchant', async ({ startInProcess }) => {
    const { client } = startInProcess(clockOptions());
    const created = await client.chargeCard('4953261730509988', { returnUrl: RETURN_URL });
    const url: string = created.body.redirect.redirectUrl;
    const page = await client.sandbox.fetch(new Request(url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('name="otp"');
    expect(html).toContain('100.00');
    const submitted = await client.submitPage(url, { otp: '123456' });
    expect(submitted.status).toBe(303);
    expect(submitted.location).toBe(RETURN_URL);
    expect((await client.getCharge(created.body.chargeId)).status).toBe('SUCCEEDED');
  });

  sandboxTest('returns to a return address with a Thai path and query, percent-encoded as a browser sends it', async ({ startInProcess }) => {
    const { client } = startInProcess(clockOptions());
    const thai = 'https://shop.example/ชำระเงิน/กลับ?order=คำสั่งซื้อ-1&already=%E0%B8%81';
    const created = await client.chargeCard('4953261730509988', { returnUrl: thai });
    const submitted = await client.submitPage(created.body.redirect.redirectUrl, { otp: '123456' });
    expect(submitted.status).toBe(303);
    expect(submitted.location).toBe(new URL(thai).href);
    expect(submitted.location).toMatch(/^[\x21-\x7e]+$/);
    expect(decodeURIComponent(new URL(submitted.location!).pathname)).toBe('/ชำระเงิน/กลับ');
    expect(new URL(submitted.location!).searchParams.get('already')).toBe('ก');
    expect((await client.getCharge(created.body.chargeId)).status).toBe('SUCCEEDED');
  });

  sandboxTest('fails the charge with CH_AUTHENTICATION_FAILED on any other code', async ({ startInProcess }) => {
    const { client } = startInProcess(clockOptions());
    const created = await client.chargeCard('4953261730509988');
    const submitted = await client.submitPage(created.body.redirect.redirectUrl, { otp: '000000' });
    expect(submitted.status).toBe(200);
    expect(submitted.html).toContain('CH_AUTHENTICATION_FAILED');
    const charge = await client.getCharge(created.body.chargeId);
    expect(charge).toMatchObject({ status: 'FAILED', failureCode: 'CH_AUTHENTICATION_FAILED' });
  });

  sandboxTest('asks again, without failing the charge, when the code is empty', async ({ startInProcess }) => {
    const { client } = startInProcess(clockOptions());
    const created = await client.chargeCard('4953261730509988');
    const submitted = await client.submitPage(created.body.redirect.redirectUrl, { otp: '  ' });
    expect(submitted.status).toBe(400);
    expect(submitted.html).toContain('role="alert"');
    expect((await client.getCharge(created.body.chargeId)).status).toBe('PENDING');
  });

  sandboxTest('says the payment is complete when opened again, and does not complete it twice', async ({ startInProcess }) => {
    const { client } = startInProcess(clockOptions());
    const created = await client.chargeCard('4953261730509988');
    await client.submitPage(created.body.redirect.redirectUrl, { otp: '123456' });
    const again = await client.submitPage(created.body.redirect.redirectUrl, { otp: '000000' });
    expect(again.html).toContain('already complete');
    expect((await client.getCharge(created.body.chargeId)).status).toBe('SUCCEEDED');
  });

  sandboxTest('is not offered for a charge that needs no OTP', async ({ startInProcess }) => {
    const { client } = startInProcess(clockOptions());
    const created = await client.chargeCard('4389783280144506');
    const page = await client.sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/otp/${created.body.chargeId}`));
    expect(page.status).toBe(404);
  });
});

describe('the force page', () => {
  sandboxTest('lets the payer force success or failure', async ({ startInProcess }) => {
    const { client } = startInProcess(clockOptions());
    const a = await client.chargeCard('4389783280144506');
    expect(a.body.redirect.redirectUrl).toBe(`${ORIGIN}/sandbox/pages/force/${a.body.chargeId}`);
    await client.submitPage(a.body.redirect.redirectUrl, { outcome: 'succeed' });
    expect((await client.getCharge(a.body.chargeId)).status).toBe('SUCCEEDED');
    const b = await client.chargeCard('4389783280144506');
    await client.submitPage(b.body.redirect.redirectUrl, { outcome: 'fail' });
    expect((await client.getCharge(b.body.chargeId)).status).toBe('FAILED');
  });

  sandboxTest('refuses an outcome it does not know, leaving the charge pending', async ({ startInProcess }) => {
    const { client } = startInProcess(clockOptions());
    const created = await client.chargeCard('4389783280144506');
    const submitted = await client.submitPage(created.body.redirect.redirectUrl, { outcome: 'maybe' });
    expect(submitted.status).toBe(400);
    expect((await client.getCharge(created.body.chargeId)).status).toBe('PENDING');
  });
});

describe('the wallet and banking-app authorize page', () => {
  sandboxTest('approves a TrueMoney payment and returns to the merchant', async ({ startInProcess }) => {
    const { client } = startInProcess(clockOptions());
    const created = await client.createCharge({ returnUrl: RETURN_URL, paymentMethod: { paymentMethodType: 'TRUE_MONEY', trueMoney: {} } });
    const html = await (await client.sandbox.fetch(new Request(created.body.redirect.redirectUrl))).text();
    expect(html).toContain('TrueMoney');
    const submitted = await client.submitPage(created.body.redirect.redirectUrl, { decision: 'approve' });
    expect(submitted.location).toBe(RETURN_URL);
    expect((await client.getCharge(created.body.chargeId)).status).toBe('SUCCEEDED');
  });

  sandboxTest('declines a K PLUS payment as CH_AUTHENTICATION_FAILED', async ({ startInProcess }) => {
    const { client } = startInProcess(clockOptions());
    const created = await client.createCharge({ paymentMethod: { paymentMethodType: 'KPLUS' } });
    await client.submitPage(created.body.redirect.redirectUrl, { decision: 'decline' });
    expect(await client.getCharge(created.body.chargeId)).toMatchObject({ status: 'FAILED', failureCode: 'CH_AUTHENTICATION_FAILED' });
  });
});

describe('the PromptPay payer simulator', () => {
  const payer = `${ORIGIN}/sandbox/pages/promptpay`;

  sandboxTest('lists no one’s pending QR charges, and pays one by its rawData', async ({ startInProcess }) => {
    const { client } = startInProcess(clockOptions());
    const created = await createQrCharge(client, { returnUrl: RETURN_URL });
    const { rawData } = created;
    const page = await (await client.sandbox.fetch(new Request(payer))).text();
    expect(page).not.toContain(created.chargeId);
    expect(page).not.toContain(rawData);
    const paid = await client.submitPage(payer, { rawData, outcome: 'succeed' });
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(RETURN_URL);
    expect((await client.getCharge(created.chargeId)).status).toBe('SUCCEEDED');
    const again = await client.submitPage(payer, { rawData, outcome: 'succeed' });
    expect(again.status).toBe(409);
    expect(again.html).toContain('already used');
  });

  sandboxTest('can decline a QR charge', async ({ startInProcess }) => {
    const { client } = startInProcess(clockOptions());
    const created = await createQrCharge(client);
    await client.submitPage(payer, { rawData: created.rawData, outcome: 'fail' });
    expect((await client.getCharge(created.chargeId)).status).toBe('FAILED');
  });

  sandboxTest('refuses an expired QR, which stays PENDING', async ({ startInProcess }) => {
    const { client } = startInProcess(clockOptions());
    const created = await createQrCharge(client);
    now += 11 * 60 * 1000;
    const answer = await client.submitPage(payer, { rawData: created.rawData, outcome: 'succeed' });
    expect(answer.status).toBe(410);
    expect(answer.html).toContain('expired');
    expect((await client.getCharge(created.chargeId)).status).toBe('PENDING');
  });

  sandboxTest('says so when no charge matches the QR', async ({ startInProcess }) => {
    const { client } = startInProcess(clockOptions());
    const created = await createQrCharge(client);
    const tampered = created.rawData.replace('5406100.00', '5406999.00');
    const answer = await client.submitPage(payer, { rawData: tampered, outcome: 'succeed' });
    expect(answer.status).toBe(404);
    expect((await client.getCharge(created.chargeId)).status).toBe('PENDING');
  });
});

/** A page as a browser asking for `language` gets it. */
async function open(sandbox: Sandbox, url: string, language?: string) {
  const answer = await sandbox.fetch(new Request(url, language === undefined ? {} : { headers: { 'accept-language': language } }));
  return { status: answer.status, html: await answer.text(), headers: answer.headers };
}

/** Submits a page's form with an Accept-Language, as the shopper's browser does. */
async function submit(sandbox: Sandbox, url: string, fields: Record<string, string>, language?: string) {
  const answer = await sandbox.fetch(
    new Request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(language === undefined ? {} : { 'accept-language': language }) },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    }),
  );
  return { status: answer.status, location: answer.headers.get('location'), html: await answer.text() };
}

/** Options for a sandbox whose clock reads `now`, set to the present, whose default merchant is the shop "Baan Craft", and a second merchant. */
function shopOptions(): SandboxOptions {
  now = Date.now();
  return {
    now: () => new Date(now),
    merchants: [
      { ...defaultSandboxMerchant(), name: 'Baan Craft' },
      { merchantId: 'mch_other', apiKey: 'sk_other_000000000000000000000', publishableKey: 'pk_other_000000000000000000000', name: 'Other Shop' },
    ],
  };
}
const OTHER_AUTH = basic('mch_other', 'sk_other_000000000000000000000');

describe('the pages in the shopper’s language, naming the shop', () => {
  sandboxTest('shows each step page in Thai to a Thai browser: the shop’s name, the amount and Thai words', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(shopOptions());
    const otp = await client.chargeCard('4953261730509988', { amount: 25_000, referenceId: 'order-7' });
    const force = await client.chargeCard('4389783280144506', { amount: 25_000, referenceId: 'order-7' });
    const wallet = await client.createCharge({ amount: 25_000, referenceId: 'order-7', paymentMethod: { paymentMethodType: 'TRUE_MONEY', trueMoney: {} } });
    const expected = [
      [otp, 'ยืนยันการชำระเงิน'],
      [force, 'เลือกว่าการชำระเงินนี้จะจบอย่างไร'],
      [wallet, 'ชำระ ฿250.00 ให้ Baan Craft ด้วย TrueMoney หรือไม่'],
    ] as const;
    for (const [created, heading] of expected) {
      const page = await open(sandbox, created.body.redirect.redirectUrl, 'th-TH,th;q=0.9,en;q=0.8');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(page.html).toContain('<html lang="th">');
      expect(page.html).toContain(`<h1>${heading}</h1>`);
      expect(page.html).toContain('<dt>ชำระให้</dt><dd>Baan Craft</dd>');
      expect(page.html).toContain('<dt>ยอดชำระ</dt><dd>฿250.00</dd>');
      expect(page.html).toContain('<dt>เลขที่คำสั่งซื้อ</dt><dd>order-7</dd>');
    }
  });

  sandboxTest('speaks English by default, to an English browser and to one that asks for a language it does not speak', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(shopOptions());
    const created = await client.createCharge({ paymentMethod: { paymentMethodType: 'TRUE_MONEY', trueMoney: {} } });
    for (const language of [undefined, 'en-US,en;q=0.9,th;q=0.8', 'fr-FR,fr;q=0.9']) {
      const page = await open(sandbox, created.body.redirect.redirectUrl, language);
      expect(page.html, language).toContain('<html lang="en">');
      expect(page.html, language).toContain('<h1>Pay ฿100.00 to Baan Craft with TrueMoney?</h1>');
    }
  });

  sandboxTest('lets lang= override the browser, and keeps the choice through the form it posts', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(shopOptions());
    const created = await client.chargeCard('4953261730509988');
    const url: string = created.body.redirect.redirectUrl;
    const thai = await open(sandbox, `${url}?lang=th`, 'en-US');
    expect(thai.html).toContain('<html lang="th">');
    const path = new URL(url).pathname;
    expect(thai.html).toContain(`<form method="post" action="${path}?lang=th">`);
    expect((await open(sandbox, `${url}?lang=en`, 'th')).html).toContain('<html lang="en">');
    const empty = await submit(sandbox, `${url}?lang=th`, { otp: ' ' }, 'en-US');
    expect(empty.status).toBe(400);
    expect(empty.html).toContain('<html lang="th">');
    expect(empty.html).toContain('role="alert">กรุณากรอกรหัส OTP</p>');
    expect((await client.getCharge(created.body.chargeId)).status).toBe('PENDING');
  });

  sandboxTest('says the outcome in Thai, with the shop’s name, when there is no return URL', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(shopOptions());
    const created = await client.createCharge({ paymentMethod: { paymentMethodType: 'KPLUS' } });
    const done = await submit(sandbox, created.body.redirect.redirectUrl, { decision: 'approve' }, 'th');
    expect(done.status).toBe(200);
    expect(done.html).toContain('<h1>อนุมัติการชำระเงินแล้ว</h1>');
    expect(done.html).toContain('ชำระเงินให้ Baan Craft สำเร็จแล้ว');
    expect(done.html).toContain('>สำเร็จ</span>');
  });

  sandboxTest('refuses a lang with control characters or markup with a 400 page, before it changes anything', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(shopOptions());
    const created = await client.chargeCard('4389783280144506');
    const url: string = created.body.redirect.redirectUrl;
    for (const lang of ['th%0D%0ALocation:%20https://evil.example', '%3Cscript%3E', 'th%00']) {
      const page = await open(sandbox, `${url}?lang=${lang}`);
      expect(page.status, lang).toBe(400);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.html).toContain('Language not understood');
      expect(page.html).not.toContain('<script>');
      const posted = await submit(sandbox, `${url}?lang=${lang}`, { outcome: 'succeed' });
      expect(posted.status, lang).toBe(400);
    }
    expect((await client.getCharge(created.body.chargeId)).status).toBe('PENDING');
  });

  sandboxTest('answers a page that does not exist with a 404 in the shopper’s language', async ({ startInProcess }) => {
    const { sandbox } = startInProcess(shopOptions());
    const page = await open(sandbox, `${ORIGIN}/sandbox/pages/otp/ch_doesnotexist`, 'th');
    expect(page.status).toBe(404);
    expect(page.html).toContain('<html lang="th">');
    expect(page.html).toContain('ไม่พบการชำระเงิน');
  });
});

describe('the payer link of a QR charge', () => {
  const qrCharge = (client: SandboxClient, auth?: string) => createQrCharge(client, { amount: 25_000 }, auth ? { auth } : {});
  async function payerLink(client: SandboxClient, chargeId: string, auth?: string) {
    return client.get(`/sandbox/v1/charges/${chargeId}/payer-link`, auth ? { auth } : {});
  }

  sandboxTest('is handed to the charge’s merchant, with its API key, and opens a page naming the shop, in Thai when asked', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(shopOptions());
    const { chargeId } = await qrCharge(client);
    const link = await payerLink(client, chargeId);
    expect(link.status).toBe(200);
    expect(link.body).toMatchObject({ chargeId, status: 'PENDING', expiresAt: expect.any(String) });
    expect(link.body.payerUrl).toMatch(new RegExp(`^${ORIGIN}/sandbox/pages/promptpay/${chargeId}/[A-Za-z0-9_-]{43}$`));
    const page = await open(sandbox, link.body.payerUrl, 'th');
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="th">');
    expect(page.html).toContain('<h1>ชำระ ฿250.00 ให้ Baan Craft</h1>');
    expect(page.html).toContain('<dt>เลขที่คำสั่งซื้อ</dt><dd>order-qr</dd>');
    expect(page.html).toMatch(/<time datetime="[^"]+">[^<]+ เวลาประเทศไทย<\/time>/);
  });

  sandboxTest('pays its charge, which becomes SUCCEEDED, and then says it is complete without paying twice', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(shopOptions());
    const { chargeId } = await qrCharge(client);
    const payerUrl = await client.payerLink(chargeId);
    const paid = await submit(sandbox, payerUrl, { outcome: 'succeed' });
    expect(paid.status).toBe(200);
    expect(paid.html).toContain('Payment sent');
    expect(await client.getCharge(chargeId)).toMatchObject({ status: 'SUCCEEDED', amount: 25_000 });
    const again = await submit(sandbox, payerUrl, { outcome: 'fail' });
    expect(again.html).toContain('This payment is already complete');
    expect((await client.getCharge(chargeId)).status).toBe('SUCCEEDED');
  });

  sandboxTest('declines its charge, and goes to the return URL', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(shopOptions());
    const created = await createQrCharge(client, { returnUrl: RETURN_URL });
    const { payerUrl } = (await payerLink(client, created.chargeId)).body;
    const declined = await submit(sandbox, payerUrl, { outcome: 'fail' });
    expect(declined).toMatchObject({ status: 303, location: RETURN_URL });
    expect(await client.getCharge(created.chargeId)).toMatchObject({ status: 'FAILED', failureCode: 'CH_PROCESSING_FAILED' });
  });

  sandboxTest('acts on its own charge only, whatever the form says', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(shopOptions());
    const mine = await qrCharge(client);
    const other = await qrCharge(client);
    const { payerUrl } = (await payerLink(client, mine.chargeId)).body;
    await submit(sandbox, payerUrl, { outcome: 'succeed', rawData: other.rawData, chargeId: other.chargeId });
    expect((await client.getCharge(mine.chargeId)).status).toBe('SUCCEEDED');
    expect((await client.getCharge(other.chargeId)).status).toBe('PENDING');
  });

  sandboxTest('is not handed out for another merchant’s charge: 404, as for a charge that does not exist', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(shopOptions());
    const theirs = await qrCharge(client, OTHER_AUTH);
    const refused = await payerLink(client, theirs.chargeId);
    const unknown = await payerLink(client, 'ch_doesnotexist');
    expect(refused.status).toBe(404);
    expect(refused.body.error.errorCode).toBe('NOT_FOUND_ERROR');
    expect(unknown.status).toBe(404);
    expect(refused.body.error.errorMessage.replace(theirs.chargeId, 'ID')).toBe(unknown.body.error.errorMessage.replace('ch_doesnotexist', 'ID'));
    const own = await payerLink(client, theirs.chargeId, OTHER_AUTH);
    expect(own.status).toBe(200);
    expect((await open(sandbox, own.body.payerUrl)).html).toContain('<h1>Pay ฿250.00 to Other Shop</h1>');
  });

  sandboxTest('says a card charge has no payer link', async ({ startInProcess }) => {
    const { client } = startInProcess(shopOptions());
    const card = await client.chargeCard('4389783280144506');
    const answer = await payerLink(client, card.body.chargeId);
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatchObject({ errorCode: 'OPERATION_NOT_ALLOWED_ERROR', errorMessage: expect.stringContaining('not a QR PromptPay charge') });
  });

  sandboxTest('refuses a forged, a missing or another charge’s secret with the same 404 page, which names no charge', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(shopOptions());
    const { chargeId } = await qrCharge(client);
    const theirs = await qrCharge(client, OTHER_AUTH);
    const mineUrl: string = (await payerLink(client, chargeId)).body.payerUrl;
    const theirsUrl: string = (await payerLink(client, theirs.chargeId, OTHER_AUTH)).body.payerUrl;
    const secret = mineUrl.slice(mineUrl.lastIndexOf('/') + 1);
    const theirSecret = theirsUrl.slice(theirsUrl.lastIndexOf('/') + 1);
    const flipped = `${secret.slice(0, -2)}${secret.at(-2) === 'A' ? 'B' : 'A'}${secret.at(-1)}`;
    const base = `${ORIGIN}/sandbox/pages/promptpay`;
    const forged = [
      `${base}/${chargeId}/${flipped}`,
      `${base}/${chargeId}/${theirSecret}`,
      `${base}/${theirs.chargeId}/${secret}`,
      `${base}/${chargeId}/${'A'.repeat(43)}`,
      `${base}/${chargeId}/x`,
      `${base}/ch_doesnotexist/${secret}`,
      `${base}/${chargeId}`,
    ];
    const pages = await Promise.all(forged.map((url) => open(sandbox, url)));
    for (const [index, page] of pages.entries()) {
      expect(page.status, forged[index]).toBe(404);
      expect(page.html).not.toContain(chargeId);
      expect(page.html).not.toContain(theirs.chargeId);
      expect(page.html).not.toContain('Other Shop');
      expect(page.html).not.toContain('Baan Craft');
    }
    for (const url of forged) expect((await submit(sandbox, url, { outcome: 'succeed' })).status, url).toBe(404);
    expect((await client.getCharge(chargeId)).status).toBe('PENDING');
    expect((await client.get(`/api/v1/charges/${theirs.chargeId}`, { auth: OTHER_AUTH })).body.status).toBe('PENDING');
  });

  sandboxTest('offers no button once the code has expired, and refuses a late payment with 410', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(shopOptions());
    const { chargeId } = await qrCharge(client);
    const { payerUrl } = (await payerLink(client, chargeId)).body;
    now += 11 * 60 * 1000;
    const page = await open(sandbox, payerUrl);
    expect(page.status).toBe(410);
    expect(page.html).toContain('This QR code has expired');
    expect(page.html).not.toContain('<button');
    expect((await submit(sandbox, payerUrl, { outcome: 'succeed' })).status).toBe(410);
    expect((await client.getCharge(chargeId)).status).toBe('PENDING');
  });

  sandboxTest('asks again for an outcome it does not know', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(shopOptions());
    const { chargeId } = await qrCharge(client);
    const { payerUrl } = (await payerLink(client, chargeId)).body;
    const answer = await submit(sandbox, `${payerUrl}?lang=th`, { outcome: 'maybe' });
    expect(answer.status).toBe(400);
    expect(answer.html).toContain('role="alert">เลือก ชำระเงิน หรือ ปฏิเสธ</p>');
    expect((await client.getCharge(chargeId)).status).toBe('PENDING');
  });

  sandboxTest('is refused without the merchant’s API key', async ({ startInProcess }) => {
    const { client } = startInProcess(shopOptions());
    const { chargeId } = await qrCharge(client);
    expect((await client.get(`/sandbox/v1/charges/${chargeId}/payer-link`, { auth: null })).status).toBe(401);
    expect((await client.get(`/sandbox/v1/charges/${chargeId}/payer-link`, { auth: CLIENT_AUTH })).status).toBe(401);
  });
});

describe('addresses and methods the pages do not have', () => {
  const send = (client: SandboxClient, path: string, method = 'GET') => client.sandbox.fetch(new Request(`${ORIGIN}${path}`, { method }));

  sandboxTest('answers a missing page under /sandbox/pages with the HTML "Page not found", the payment links’ own address included', async ({ startInProcess }) => {
    const { client } = startInProcess(clockOptions());
    for (const path of ['/sandbox/pages/nope', '/sandbox/pages/', '/sandbox/pages/payment-links']) {
      const answer = await send(client, path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('content-type'), path).toContain('text/html');
      expect(await answer.text(), path).toContain('Page not found');
    }
    const outside = await send(client, '/sandbox/pages');
    expect(outside.status).toBe(404);
    expect(outside.headers.get('content-type')).toContain('application/json');
  });

  sandboxTest('refuses another method on a page with 405, its Allow and the pages’ wording', async ({ startInProcess }) => {
    const { client } = startInProcess(clockOptions());
    const created = await client.chargeCard('4953261730509988');
    const head = await send(client, new URL(created.body.redirect.redirectUrl as string).pathname, 'HEAD');
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET, POST');
    const stylesheet = await send(client, '/sandbox/pages/style.css', 'POST');
    expect(stylesheet.status).toBe(405);
    expect(stylesheet.headers.get('allow')).toBe('GET');
    expect(await stylesheet.json()).toMatchObject({ error: { errorCode: 'METHOD_NOT_ALLOWED_ERROR', errorMessage: 'POST is not allowed here; use GET' } });
  });
});
