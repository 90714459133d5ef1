import { describe, expect, it } from 'vitest';
import { crc16CcittFalse, parseEmvTlv } from '../../../src/core/emv-qr.js';
import { defaultSandboxMerchant, buildSlipQrPayload, parseSlipQrPayload, type Sandbox, type SandboxOptions } from '../../../src/sandbox/index.js';
import { readSlipTextFromPng } from '../../../src/sandbox/slips/slip-image.js';
import { createQrCharge } from '../../support/qr-charge.js';
import { API_AUTH, basic, IDEMPOTENCY_HEADER, ORIGIN, type SandboxClient } from '../../support/sandbox-client.js';
import { sandboxTest } from '../../support/sandbox-fixture.js';
import { scanQrPngBase64 } from '../../support/scan-qr.js';

const WEBHOOK_KEY = Buffer.from('a webhook key of thirty-two byte').toString('base64');
const OTHER = { merchantId: 'mch_other', apiKey: 'sk_other_000000000000000000000000', publishableKey: 'pk_other_000000000000000000000000' };
const OTHER_AUTH = basic(OTHER.merchantId, OTHER.apiKey);

let now = Date.now();
/** Webhook events in the order the sandbox sent them. */
const events = (sandbox: Sandbox) => sandbox.webhooks.list().reverse().map((delivery) => delivery.event);

/**
 * Options for a sandbox whose clock reads `now`, set to the present, with a second merchant and a
 * webhook receiver that acknowledges everything; `options` override them.
 */
function slipOptions(options: SandboxOptions = {}): SandboxOptions {
  now = Date.now();
  return {
    now: () => new Date(now),
    merchants: [defaultSandboxMerchant(), OTHER],
    webhook: {
      url: 'https://merchant.example/hooks',
      webhookKeyBase64: WEBHOOK_KEY,
      retryBaseDelayMs: 1,
      fetch: () => Promise.resolve(new Response(null, { status: 204 })),
    },
    ...options,
  };
}

const qrCharge = (client: SandboxClient, auth = API_AUTH) => createQrCharge(client, { amount: 12_345, referenceId: 'order-9' }, { auth });
async function slipOf(client: SandboxClient, chargeId: string, auth = API_AUTH) {
  const answer = await client.get(`/sandbox/v1/charges/${chargeId}/slip`, { auth });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}
const verify = (client: SandboxClient, body: unknown, init: Parameters<SandboxClient['post']>[2] = {}) => client.post('/api/v1/charges/verify-qr-slip', body, init);
const postPage = (client: SandboxClient, path: string, fields: Record<string, string>) => client.submitPage(`${ORIGIN}${path}`, fields);
const settled = (sandbox: Sandbox) => sandbox.webhooks.idle();

describe('the slip QR payload', () => {
  it('is TLV with the API id, the sending bank and the reference in tag 00, TH in tag 51 and a CRC in tag 91', () => {
    const raw = buildSlipQrPayload({ sendingBankCode: '014', transactionRef: '20250314ABCDEF123456' });
    const fields = parseEmvTlv(raw);
    expect(fields.map((f) => f.tag)).toEqual(['00', '51', '91']);
    expect(parseEmvTlv(fields[0]!.value)).toEqual([
      { tag: '00', value: '000001' },
      { tag: '01', value: '014' },
      { tag: '02', value: '20250314ABCDEF123456' },
    ]);
    expect(fields[1]!.value).toBe('TH');
    expect(fields[2]!.value).toBe(crc16CcittFalse(raw.slice(0, -4)));
    expect(parseSlipQrPayload(raw)).toEqual({ sendingBankCode: '014', transactionRef: '20250314ABCDEF123456' });
  });

  it('is not read when a character, the checksum, the API id or the country is wrong', () => {
    const raw = buildSlipQrPayload({ sendingBankCode: '004', transactionRef: 'REF123' });
    const flipped = raw.replace('REF123', 'REF124');
    expect(parseSlipQrPayload(flipped)).toBeUndefined();
    expect(parseSlipQrPayload(`${raw.slice(0, -4)}0000`)).toBeUndefined();
    const withBody = (body: string) => `${body}9104${crc16CcittFalse(`${body}9104`)}`;
    expect(parseSlipQrPayload(withBody('0027000600000201030040206REF1235102TH'))).toBeUndefined();
    expect(parseSlipQrPayload(withBody('0027000600000101030040206REF1235102US'))).toBeUndefined();
    expect(parseSlipQrPayload(withBody('0027000600000101030040206REF1235102TH'))).toEqual({ sendingBankCode: '004', transactionRef: 'REF123' });
    for (const junk of ['', 'hello', '00', '0041000600000101030040220014242082547BPM049885102TH9104F4C4']) {
      expect(parseSlipQrPayload(junk), junk).toBeUndefined();
    }
  });

  it('refuses to build from a bank code or reference of the wrong shape', () => {
    expect(() => buildSlipQrPayload({ sendingBankCode: '4', transactionRef: 'A' })).toThrow(RangeError);
    expect(() => buildSlipQrPayload({ sendingBankCode: '004', transactionRef: 'A-1' })).toThrow(RangeError);
  });
});

describe('the PromptPay payer page', () => {
  sandboxTest('offers to pay by bank transfer and get a slip, for the pasted QR and on a charge’s payer link', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(slipOptions());
    const { chargeId, rawData } = await qrCharge(client);
    const slipButton = /<button[^>]*formaction="\/sandbox\/pages\/slips"[^>]*name="outcome" value="slip"[^>]*>/g;
    const html = await (await sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/promptpay`))).text();
    expect(html.match(slipButton) ?? []).toHaveLength(1);
    expect(html).toContain('Pay by bank transfer and get a slip');
    expect(html).not.toContain(chargeId);
    const link = await sandbox.fetch(new Request(`${ORIGIN}/sandbox/v1/charges/${chargeId}/payer-link`, { headers: { authorization: API_AUTH } }));
    const { payerUrl } = (await link.json()) as { payerUrl: string };
    const linked = await (await sandbox.fetch(new Request(payerUrl))).text();
    expect(linked.match(slipButton) ?? []).toHaveLength(1);
    expect(linked).toContain(`<input type="hidden" name="rawData" value="${rawData}">`);
  });

  sandboxTest('makes the transfer without completing the charge, and shows the slip with its picture, download link and QR text', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(slipOptions());
    const { chargeId, rawData } = await qrCharge(client);
    const issued = await postPage(client, '/sandbox/pages/slips', { rawData, outcome: 'slip' });
    expect(issued.status).toBe(303);
    expect(issued.location).toMatch(/^\/sandbox\/pages\/slips\/\d{8}[A-Z0-9]{12}$/);
    expect((await client.getCharge(chargeId)).status).toBe('PENDING');

    const page = await sandbox.fetch(new Request(`${ORIGIN}${issued.location}`));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    const ref = issued.location!.split('/').at(-1)!;
    expect(html).toContain(`<img class="slip-image" src="/sandbox/pages/slips/${ref}.png"`);
    expect(html).toContain(`href="/sandbox/pages/slips/${ref}.png?download" download="slip-${ref}.png"`);
    expect(html).toContain('still PENDING');
    expect(html).toContain('123.45');
    const raw = /<code class="slip-raw" id="slip-raw"[^>]*>([^<]+)<\/code>/.exec(html)?.[1];
    expect(parseSlipQrPayload(raw ?? '')).toEqual({ sendingBankCode: '004', transactionRef: ref });

    const png = await sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/slips/${ref}.png`));
    expect(png.headers.get('content-type')).toBe('image/png');
    const bytes = new Uint8Array(await png.arrayBuffer());
    expect(scanQrPngBase64(Buffer.from(bytes).toString('base64'))).toBe(raw);
    expect(readSlipTextFromPng(bytes)).toBe(raw);
    const download = await sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/slips/${ref}.png?download`));
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="slip-${ref}.png"`);

    await settled(sandbox);
    expect(events(sandbox)).toEqual([]);
  });

  sandboxTest('escapes the payee on the slip page and carries no script or inline style', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(slipOptions({ merchants: [{ ...defaultSandboxMerchant(), name: '<b onclick=x>Shop' }] }));
    const { rawData } = await qrCharge(client);
    const issued = await postPage(client, '/sandbox/pages/slips', { rawData });
    const html = await (await sandbox.fetch(new Request(`${ORIGIN}${issued.location}`))).text();
    expect(html).toContain('&lt;b onclick=x&gt;Shop');
    expect(html).not.toMatch(/<script|\sstyle=|<b\s/i);
  });

  sandboxTest('hands out the same slip when asked again for the same charge', async ({ startInProcess }) => {
    const { client } = startInProcess(slipOptions());
    const { rawData } = await qrCharge(client);
    const a = await postPage(client, '/sandbox/pages/slips', { rawData });
    const b = await postPage(client, '/sandbox/pages/slips', { rawData: `  ${rawData}\n` });
    expect(b.location).toBe(a.location);
  });

  sandboxTest('makes no transfer for an empty or unknown QR, a declined charge or an expired QR', async ({ startInProcess }) => {
    const { client } = startInProcess(slipOptions());
    expect((await postPage(client, '/sandbox/pages/slips', { rawData: ' ' })).status).toBe(400);
    expect((await postPage(client, '/sandbox/pages/slips', { rawData: 'not a qr' })).status).toBe(404);
    const declined = await qrCharge(client);
    await postPage(client, '/sandbox/pages/promptpay', { rawData: declined.rawData, outcome: 'fail' });
    const refused = await postPage(client, '/sandbox/pages/slips', { rawData: declined.rawData });
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('declined');
    const late = await qrCharge(client);
    now += 10 * 60 * 1000;
    const expired = await postPage(client, '/sandbox/pages/slips', { rawData: late.rawData });
    expect(expired.status).toBe(409);
    expect(expired.html).toContain('expired');
    expect((await client.get(`/sandbox/v1/charges/${late.chargeId}/slip`)).status).toBe(409);
  });

  sandboxTest('answers odd requests to the slip pages plainly', async ({ startInProcess }) => {
    const { sandbox } = startInProcess(slipOptions());
    expect((await sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/slips`))).status).toBe(405);
    expect((await sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/slips/NOPE`))).status).toBe(404);
    expect((await sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/slips/NOPE.png`))).status).toBe(404);
    for (const path of ['/sandbox/pages/slips/NOPE', '/sandbox/pages/slips/', '/sandbox/pages/slips/NOPE/more']) {
      const posted = await sandbox.fetch(new Request(`${ORIGIN}${path}`, { method: 'POST' }));
      expect(posted.status, path).toBe(405);
      expect(posted.headers.get('allow'), path).toBe('GET');
    }
    const json = await sandbox.fetch(new Request(`${ORIGIN}/sandbox/pages/slips`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
    expect(json.status).toBe(415);
  });
});

describe('GET /sandbox/v1/charges/{chargeId}/slip', () => {
  sandboxTest('describes the slip as JSON, and gives the QR text or the picture alone on request', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(slipOptions());
    const { chargeId } = await qrCharge(client);
    const slip = await slipOf(client, chargeId);
    expect(slip).toMatchObject({ chargeId, sendingBankCode: '004', amount: 12_345, paidAt: new Date(now).toISOString() });
    expect(slip.slipUrl).toBe(`${ORIGIN}/sandbox/pages/slips/${slip.transactionRef}`);
    expect(parseSlipQrPayload(slip.raw)?.transactionRef).toBe(slip.transactionRef);
    expect(scanQrPngBase64(slip.imageBase64Encoded)).toBe(slip.raw);

    const raw = await sandbox.fetch(new Request(`${ORIGIN}/sandbox/v1/charges/${chargeId}/slip?format=raw`, { headers: { authorization: API_AUTH } }));
    expect(raw.headers.get('content-type')).toContain('text/plain');
    expect(await raw.text()).toBe(slip.raw);
    const png = await sandbox.fetch(new Request(`${ORIGIN}/sandbox/v1/charges/${chargeId}/slip?format=png`, { headers: { authorization: API_AUTH } }));
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(scanQrPngBase64(Buffer.from(await png.arrayBuffer()).toString('base64'))).toBe(slip.raw);
    expect((await client.getCharge(chargeId)).status).toBe('PENDING');
  });

  sandboxTest('needs the API key of the charge’s merchant, a QR charge and a known format', async ({ startInProcess }) => {
    const { client } = startInProcess(slipOptions());
    const { chargeId } = await qrCharge(client);
    expect((await client.get(`/sandbox/v1/charges/${chargeId}/slip`, { auth: null })).status).toBe(401);
    expect((await client.get(`/sandbox/v1/charges/${chargeId}/slip`, { auth: OTHER_AUTH })).status).toBe(404);
    expect((await client.get('/sandbox/v1/charges/ch_nope/slip')).status).toBe(404);
    const badFormat = await client.get(`/sandbox/v1/charges/${chargeId}/slip?format=gif`);
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.error.errorMessage).toContain('format must be json, raw or png');
    const card = await client.chargeCard('4111111111111111');
    const notQr = await client.get(`/sandbox/v1/charges/${card.body.chargeId}/slip`);
    expect(notQr.status).toBe(403);
    expect(notQr.body.error.errorCode).toBe('OPERATION_NOT_ALLOWED_ERROR');
  });
});

describe('POST /api/v1/charges/verify-qr-slip', () => {
  sandboxTest('completes the charge the slip paid: UPDATED_TO_SUCCEEDED, a transaction and the webhooks; then ALREADY_SUCCEEDED', async ({ startInProcess }) => {
    const { sandbox, client } = startInProcess(slipOptions());
    const { chargeId } = await qrCharge(client);
    const slip = await slipOf(client, chargeId);
    const first = await verify(client, { format: 'RAW', raw: slip.raw });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ chargeId, verificationResult: 'UPDATED_TO_SUCCEEDED' });
    expect(await client.getCharge(chargeId)).toMatchObject({ status: 'SUCCEEDED', failureCode: '' });
    expect((await client.get(`/api/v1/transactions/${chargeId}`)).body).toMatchObject({ transactionType: 'PAYMENT', grossAmount: 12_345 });
    await settled(sandbox);
    expect(events(sandbox)).toEqual(['charge.succeeded', 'transaction.created']);

    const second = await verify(client, { format: 'RAW', raw: `${slip.raw}\n` });
    expect(second.body).toEqual({ chargeId, verificationResult: 'ALREADY_SUCCEEDED' });
    await settled(sandbox);
    expect(events(sandbox)).toHaveLength(2);
  });

  sandboxTest('completes a charge whose QR expired after the transfer, and one that FAILED after it', async ({ startInProcess }) => {
    const { client } = startInProcess(slipOptions());
    const late = await qrCharge(client);
    const lateSlip = await slipOf(client, late.chargeId);
    now += 60 * 60 * 1000;
    expect((await verify(client, { format: 'RAW', raw: lateSlip.raw })).body.verificationResult).toBe('UPDATED_TO_SUCCEEDED');

    const failed = await qrCharge(client);
    const failedSlip = await slipOf(client, failed.chargeId);
    await postPage(client, '/sandbox/pages/promptpay', { rawData: failed.rawData, outcome: 'fail' });
    expect((await client.getCharge(failed.chargeId)).failureCode).toBe('CH_PROCESSING_FAILED');
    expect((await verify(client, { format: 'RAW', raw: failedSlip.raw })).body).toEqual({ chargeId: failed.chargeId, verificationResult: 'UPDATED_TO_SUCCEEDED' });
    expect(await client.getCharge(failed.chargeId)).toMatchObject({ status: 'SUCCEEDED', failureCode: '' });
  });

  sandboxTest('says ALREADY_SUCCEEDED for a charge the payer had already paid', async ({ startInProcess }) => {
    const { client } = startInProcess(slipOptions());
    const paid = await qrCharge(client);
    await postPage(client, '/sandbox/pages/promptpay', { rawData: paid.rawData, outcome: 'succeed' });
    const slip = await slipOf(client, paid.chargeId);
    expect((await verify(client, { format: 'RAW', raw: slip.raw })).body.verificationResult).toBe('ALREADY_SUCCEEDED');
  });

  sandboxTest.for<[string, (slipRaw: string, paymentRaw: string) => string]>([
    ['a slip of a transfer nobody made', () => buildSlipQrPayload({ sendingBankCode: '004', transactionRef: '20250314AAAAAAAAAAAA' })],
    ['the right reference from another bank', (raw) => buildSlipQrPayload({ ...parseSlipQrPayload(raw)!, sendingBankCode: '014' })],
    ['slip text with a wrong checksum', (raw) => `${raw.slice(0, -4)}0000`],
    ['text that is no slip at all', () => 'hello'],
    ['the charge’s own payment QR', (_slipRaw, paymentRaw) => paymentRaw],
  ])('is 404 NOT_FOUND_ERROR for %s, and leaves the charge alone', async ([, make], { startInProcess }) => {
    const { client } = startInProcess(slipOptions());
    const { chargeId, rawData } = await qrCharge(client);
    const slip = await slipOf(client, chargeId);
    const answer = await verify(client, { format: 'RAW', raw: make(slip.raw, rawData) });
    expect(answer.status).toBe(404);
    expect(answer.body.error.errorCode).toBe('NOT_FOUND_ERROR');
    expect((await client.getCharge(chargeId)).status).toBe('PENDING');
  });

  sandboxTest('is 404 for another merchant’s slip', async ({ startInProcess }) => {
    const { client } = startInProcess(slipOptions());
    const theirs = await qrCharge(client, OTHER_AUTH);
    const slip = await slipOf(client, theirs.chargeId, OTHER_AUTH);
    expect((await verify(client, { format: 'RAW', raw: slip.raw })).status).toBe(404);
    expect((await client.get(`/api/v1/charges/${theirs.chargeId}`, { auth: OTHER_AUTH })).body.status).toBe('PENDING');
    expect((await verify(client, { format: 'RAW', raw: slip.raw }, { auth: OTHER_AUTH })).body.verificationResult).toBe('UPDATED_TO_SUCCEEDED');
  });

  sandboxTest.for<[string, unknown, string]>([
    ['no format', { raw: 'x' }, 'format is required'],
    ['an unknown format', { format: 'TEXT', raw: 'x' }, 'format must be RAW or IMAGE'],
    ['no raw', { format: 'RAW' }, 'raw is required'],
    ['an empty raw', { format: 'RAW', raw: '' }, 'raw is required'],
    ['a raw that is not text', { format: 'RAW', raw: 42 }, 'raw must be a string'],
    ['a raw too long', { format: 'RAW', raw: 'x'.repeat(2049) }, 'raw must be at most 2048 characters'],
    ['an image with a data: prefix', { format: 'IMAGE', imageBase64Encoded: 'data:image/png;base64,AAAA' }, 'imageBase64Encoded must be base64'],
    ['an image that is not canonical base64', { format: 'IMAGE', imageBase64Encoded: 'AAA' }, 'imageBase64Encoded must be base64'],
    ['a body that is an array', [], 'body must be an object'],
  ])('refuses %s with 400 API_VALIDATION_ERROR', async ([, body, message], { startInProcess }) => {
    const { client } = startInProcess(slipOptions());
    const answer = await verify(client, body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.errorCode).toBe('API_VALIDATION_ERROR');
    expect(answer.body.error.errorMessage).toContain(message);
  });

  sandboxTest('refuses a body that is not JSON, and a caller without the API key', async ({ startInProcess }) => {
    const { client } = startInProcess(slipOptions());
    const answer = await client.request('POST', '/api/v1/charges/verify-qr-slip', { raw: '{', headers: { 'content-type': 'application/json' } });
    expect(answer.body.error.errorCode).toBe('INVALID_JSON_ERROR');
    expect((await verify(client, { format: 'RAW', raw: 'x' }, { auth: null })).status).toBe(401);
  });

  sandboxTest('answers a retry with the same idempotency key as the first call', async ({ startInProcess }) => {
    const { client } = startInProcess(slipOptions());
    const { chargeId } = await qrCharge(client);
    const slip = await slipOf(client, chargeId);
    const headers = { [IDEMPOTENCY_HEADER]: '5b0f7c4e-2d7a-4a58-9b1e-3c9d2e6f8a10' };
    const a = await verify(client, { format: 'RAW', raw: slip.raw }, { headers });
    const b = await verify(client, { format: 'RAW', raw: slip.raw }, { headers });
    expect(b.body).toEqual(a.body);
    expect(b.body.verificationResult).toBe('UPDATED_TO_SUCCEEDED');
    expect(b.headers.get('X-Beam-Idempotent-Replayed')).toBe('true');
  });

  describe('with a picture of the slip', () => {
    sandboxTest('reads a slip PNG the sandbox issued, sent as JSON (format IMAGE)', async ({ startInProcess }) => {
      const { client } = startInProcess(slipOptions());
      const { chargeId } = await qrCharge(client);
      const slip = await slipOf(client, chargeId);
      const answer = await verify(client, { format: 'IMAGE', imageBase64Encoded: slip.imageBase64Encoded });
      expect(answer.body).toEqual({ chargeId, verificationResult: 'UPDATED_TO_SUCCEEDED' });
    });

    sandboxTest('reads it uploaded as multipart/form-data (field image)', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(slipOptions());
      const { chargeId } = await qrCharge(client);
      const slip = await slipOf(client, chargeId);
      const form = new FormData();
      form.set('image', new Blob([Buffer.from(slip.imageBase64Encoded, 'base64')], { type: 'image/png' }), 'slip.png');
      const response = await sandbox.fetch(new Request(`${ORIGIN}/api/v1/charges/verify-qr-slip`, { method: 'POST', headers: { authorization: API_AUTH }, body: form }));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ chargeId, verificationResult: 'UPDATED_TO_SUCCEEDED' });
    });

    sandboxTest('is 404 for a picture with no slip it can read, and 400 for an upload without the image', async ({ startInProcess }) => {
      const { sandbox, client } = startInProcess(slipOptions());
      const { chargeId, imageBase64Encoded } = await qrCharge(client);
      const paymentQr = await verify(client, { format: 'IMAGE', imageBase64Encoded });
      expect(paymentQr.status).toBe(404);
      expect(paymentQr.body.error.errorMessage).toContain('no slip QR code could be read from the image');
      expect((await verify(client, { format: 'IMAGE', imageBase64Encoded: Buffer.from('not an image').toString('base64') })).status).toBe(404);

      const send = (form: FormData) => sandbox.fetch(new Request(`${ORIGIN}/api/v1/charges/verify-qr-slip`, { method: 'POST', headers: { authorization: API_AUTH }, body: form }));
      const empty = new FormData();
      empty.set('note', 'no picture');
      const missing = await send(empty);
      expect(missing.status).toBe(400);
      expect((await missing.json()).error.errorMessage).toContain('image is required');
      const text = new FormData();
      text.set('image', 'a string, not a file');
      expect((await send(text)).status).toBe(400);
      const broken = await sandbox.fetch(
        new Request(`${ORIGIN}/api/v1/charges/verify-qr-slip`, { method: 'POST', headers: { authorization: API_AUTH, 'content-type': 'multipart/form-data; boundary=x' }, body: 'garbage' }),
      );
      expect(broken.status).toBe(400);
      expect((await client.getCharge(chargeId)).status).toBe('PENDING');
    });
  });
});

describe('the slip picture', () => {
  it('carries its QR text only in a well-formed PNG', () => {
    expect(readSlipTextFromPng(new Uint8Array([1, 2, 3]))).toBeUndefined();
    expect(readSlipTextFromPng(new Uint8Array(0))).toBeUndefined();
  });

  sandboxTest('is not read once a byte of it is damaged', async ({ startInProcess }) => {
    const { client } = startInProcess(slipOptions());
    const { chargeId } = await qrCharge(client);
    const bytes = Buffer.from((await slipOf(client, chargeId)).imageBase64Encoded, 'base64');
    const text = bytes.indexOf('satang-slip-qr');
    expect(text).toBeGreaterThan(0);
    bytes[text + 20] = bytes[text + 20]! ^ 1;
    expect(readSlipTextFromPng(new Uint8Array(bytes))).toBeUndefined();
  });
});

