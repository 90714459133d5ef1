import { devices, type Page } from '@playwright/test';
import { CARDS, expect, FROM_THE_SERVER, FUTURE_EXPIRY, openShop, payButton, test } from './support.js';

/**
 * The card fields as assistive technology reads them, on a phone, in Thai and English: each one
 * required, and after a decline the security code (cleared, to type again) marked invalid with
 * the words of what to do, while the fields kept stay valid.
 */

const { defaultBrowserType: _browser, ...pixel } = devices['Pixel 7'];
test.use({ ...pixel });

const LABELS = {
  en: { number: 'Card number', expiry: 'Expiry date', cvc: 'Security code', holder: 'Name on card', enterCvc: 'Enter the security code.', declined: 'Payment not completed' },
  th: { number: 'หมายเลขบัตร', expiry: 'วันหมดอายุ', cvc: 'รหัสความปลอดภัย', holder: 'ชื่อบนบัตร', enterCvc: 'กรุณากรอกรหัสความปลอดภัย', declined: 'การชำระเงินไม่สำเร็จ' },
} as const;

interface FieldState {
  required: boolean;
  invalid: string;
  description: string;
}

/** The text boxes of the page's accessibility tree, by name, as Chromium hands them to a screen reader. */
async function textBoxes(page: Page): Promise<Map<string, FieldState>> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: { role?: { value: string }; name?: { value: string }; description?: { value: string }; properties?: { name: string; value: { value: unknown } }[] }[];
    };
    const boxes = new Map<string, FieldState>();
    for (const node of nodes) {
      if (node.role?.value !== 'textbox' || !node.name) continue;
      const property = (name: string) => node.properties?.find((p) => p.name === name)?.value.value;
      const invalid = property('invalid');
      boxes.set(node.name.value, { required: property('required') === true, invalid: typeof invalid === 'string' ? invalid : 'false', description: node.description?.value ?? '' });
    }
    return boxes;
  } finally {
    await cdp.detach();
  }
}

for (const language of ['en', 'th'] as const) {
  const words = LABELS[language];
  test(`(${language}) every card field is required, and after a decline the security code alone is invalid, saying what to do`, async ({ page }) => {
    await openShop(page);
    if (language === 'th') await page.getByRole('navigation', { name: 'Language' }).getByRole('button', { name: 'ไทย' }).click();
    await expect(page.getByLabel(words.number)).toBeVisible();

    const fields = [words.number, words.expiry, words.cvc, words.holder];
    const before = await textBoxes(page);
    for (const name of fields) expect(before.get(name), name).toMatchObject({ required: true, invalid: 'false' });

    await page.getByLabel(words.number).pressSequentially(CARDS.insufficientFunds);
    await page.getByLabel(words.expiry).pressSequentially(FUTURE_EXPIRY);
    await page.getByLabel(words.cvc).pressSequentially('123');
    await page.getByLabel(words.holder).pressSequentially('Somchai Jaidee');
    await payButton(page).click();
    await expect(page.locator('satang-checkout').getByRole('alert').filter({ hasText: words.declined })).toBeVisible(FROM_THE_SERVER);

    const after = await textBoxes(page);
    expect(after.get(words.cvc)).toMatchObject({ required: true, invalid: 'true', description: expect.stringContaining(words.enterCvc) });
    for (const name of [words.number, words.expiry, words.holder]) expect(after.get(name), name).toMatchObject({ required: true, invalid: 'false' });

    // Typed again, it is valid again.
    await page.getByLabel(words.cvc).pressSequentially('123');
    expect((await textBoxes(page)).get(words.cvc)).toMatchObject({ invalid: 'false' });
  });
}
