import type { Page } from '@playwright/test';
import { CARDS, expect, openShop, payButton, test } from './support.js';

/** How the checkout sits in the shop's page: its place before the script runs, its dark box, a narrow phone. */

/** The checkout's height as the page lays it out. */
async function checkoutHeight(page: Page): Promise<number> {
  return (await page.locator('satang-checkout').boundingBox())!.height;
}

test.describe("the checkout's place before its script runs", () => {
  for (const width of [320, 400, 1280]) {
    test(`is as tall as its first render at ${width} px, and so is the settled checkout: the page does not move when it arrives, nor after`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      // The element's script held, as on a slow phone: the page shows with the checkout not yet defined.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/src\/elements\/index\.ts(\?.*)?$/, async (route) => {
        await released;
        await route.fallback();
      });
      // The code fetched after the first render (the other methods' panels and their notes) is held
      // until the first render is measured, whether the page loads the sources or the built chunks.
      let measured!: () => void;
      const firstRenderMeasured = new Promise<void>((resolve) => (measured = resolve));
      await page.route(/\/src\/elements\/(satang-checkout\/pay-path\.ts|chunks\/)/, async (route) => {
        await firstRenderMeasured;
        await route.fallback();
      });
      await page.goto('/', { waitUntil: 'commit' });
      const checkout = page.locator('satang-checkout');
      await expect(checkout).toBeAttached();
      await expect.poll(() => checkout.evaluate((element) => getComputedStyle(element).minHeight)).not.toBe('0px');
      expect(await checkout.evaluate((element) => element.matches(':not(:defined)'))).toBe(true);
      const before = await checkoutHeight(page);
      // Its surface, not an empty hole.
      expect(await checkout.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(255, 255, 255)');

      release();
      // Measured at the first render, before anything the checkout fetches afterwards.
      const after = await checkout.evaluate(async (element) => {
        await customElements.whenDefined('satang-checkout');
        const el = element as HTMLElement & { updateComplete: Promise<unknown> };
        await el.updateComplete;
        const form = el.shadowRoot!.querySelector('satang-card-form') as (HTMLElement & { updateComplete: Promise<unknown> }) | null;
        await form?.updateComplete;
        return element.getBoundingClientRect().height;
      });
      measured();
      expect(Math.abs(after - before), `${before}px before the script, ${after}px at its first render`).toBeLessThan(4);
      await expect(payButton(page)).toBeVisible();
      // The code fetched after the first render adds its words (why installments are closed) in place.
      await expect(checkout.locator('[part="method-reason"]')).toBeVisible();
      const settled = await checkoutHeight(page);
      expect(Math.abs(settled - before), `${before}px before the script, ${settled}px settled`).toBeLessThan(4);
    });
  }
});

test.describe('the dark theme on a light page', () => {
  test('keeps the content off the edges of its dark box, and so does auto in a dark system theme', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await openShop(page);
    const checkout = page.locator('satang-checkout');
    for (const theme of ['dark', 'auto']) {
      await checkout.evaluate((element, value) => element.setAttribute('theme', value), theme);
      const box = (await checkout.locator('[part="container"]').boundingBox())!;
      const picker = (await checkout.locator('[part="methods"]').boundingBox())!;
      const pay = (await payButton(page).boundingBox())!;
      expect(picker.x - box.x, theme).toBeGreaterThanOrEqual(12);
      expect(picker.y - box.y, theme).toBeGreaterThanOrEqual(12);
      expect(box.x + box.width - (pay.x + pay.width), theme).toBeGreaterThanOrEqual(12);
      expect(box.y + box.height - (pay.y + pay.height), theme).toBeGreaterThanOrEqual(12);
    }
    await page.screenshot({ path: test.info().outputPath('dark-on-light.png'), fullPage: true });
  });
});

test.describe('on a 320 px phone', () => {
  for (const [brand, number, shown] of [
    ['American Express', '378282246310005', '3782 822463 10005'],
    ['UnionPay', '6212345678901234567', '6212 3456 7890 1234 567'],
    ['Visa', CARDS.visa, '4111 1111 1111 1111'],
  ] as const) {
    test(`shows a whole ${brand} number, none of it under the brand's mark`, async ({ page }) => {
      await page.setViewportSize({ width: 320, height: 800 });
      await openShop(page);
      const input = page.getByLabel('Card number');
      await input.pressSequentially(number);
      await expect(input).toHaveValue(shown);
      const mark = page.locator('satang-card-form [part="brand"] svg');
      await expect(mark).toBeVisible();
      const { scrollWidth, clientWidth, textEnd } = await input.evaluate((element: HTMLInputElement) => {
        const style = getComputedStyle(element);
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        context.letterSpacing = style.letterSpacing;
        const left = element.getBoundingClientRect().left + element.clientLeft + Number.parseFloat(style.paddingLeft);
        return { scrollWidth: element.scrollWidth, clientWidth: element.clientWidth, textEnd: left + context.measureText(element.value).width };
      });
      expect(scrollWidth, 'nothing of the number scrolled out of view').toBeLessThanOrEqual(clientWidth);
      expect(textEnd, 'the last digit ends before the mark').toBeLessThanOrEqual((await mark.boundingBox())!.x);
      await page.locator('satang-checkout').screenshot({ path: test.info().outputPath(`number-320-${brand}.png`) });
    });
  }
});
