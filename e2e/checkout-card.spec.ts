import { addScarvesUntilInstallments, CARDS, chargesFor, expect, expectNotPaid, expectPaid, onlyChargeFor, openShop, payButton, spaced, test, typeCard } from './support.js';

/** Card payments on the shop page: straight, declined, and in installments. */

test('a shopper pays by card and sees the payment succeed and the order confirmed', async ({ page, request }) => {
  const reference = await openShop(page);
  await expect(page.getByRole('radio', { name: 'Card', exact: true })).toBeChecked();
  await typeCard(page, { number: CARDS.visa });
  await expect(page.getByLabel('Card number')).toHaveValue(spaced(CARDS.visa));
  await payButton(page).click();

  await expectPaid(page);
  const charge = await onlyChargeFor(request, reference);
  expect(charge).toMatchObject({ status: 'SUCCEEDED', amount: 178_000, paymentMethod: { paymentMethodType: 'CARD' } });
  const confirmation = page.getByRole('region', { name: 'Thank you, your order is confirmed' });
  await expect(confirmation).toContainText(`Order ${reference}`);
  await expect(confirmation).toContainText(`Payment ${charge.chargeId}`);
});

test('a shopper whose card lacks funds is told so, tries again with another card and pays', async ({ page, request }) => {
  const reference = await openShop(page);
  await typeCard(page, { number: CARDS.insufficientFunds });
  await payButton(page).click();

  await expectNotPaid(page, 'The card was declined for insufficient funds. Try another card, or pay with PromptPay.');
  // Still on the form, with what was typed still there but the security code.
  await expect(page.getByLabel('Card number')).toHaveValue(spaced(CARDS.insufficientFunds));
  await expect(page.getByLabel('Security code')).toHaveValue('');
  await page.getByLabel('Card number').fill('');
  await page.getByLabel('Card number').pressSequentially(CARDS.visa);
  await page.getByLabel('Security code').pressSequentially('123');
  await payButton(page).click();

  await expectPaid(page);
  const charges = await chargesFor(request, reference);
  expect(charges.map((c) => [c.status, c.failureCode])).toEqual([
    ['SUCCEEDED', ''],
    ['FAILED', 'CH_INSUFFICIENT_FUNDS'],
  ]);
});

test('a shopper who submits an empty card form sees what is missing, field by field, from the card number on', async ({ page, request }) => {
  const reference = await openShop(page);
  await payButton(page).click();

  await expect(page.getByLabel('Card number')).toBeFocused();

  for (const [label, error] of [
    ['Card number', 'Enter the card number.'],
    ['Expiry date', 'Enter the expiry date.'],
    ['Security code', 'Enter the security code.'],
    ['Name on card', 'Enter the name as shown on the card.'],
  ] as const) {
    await expect(page.getByLabel(label)).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel(label)).toHaveAccessibleDescription(new RegExp(error.replace('.', '\\.')));
  }
  await expect(page.locator('satang-card-form').getByRole('status')).toHaveText('Enter the card number.');
  expect(await chargesFor(request, reference)).toHaveLength(0);
});

test('a shopper with a bigger cart pays in 3 monthly installments', async ({ page, request }) => {
  const reference = await openShop(page);
  // ฿1,780 is under the smallest installment amount: installments show, disabled, with the minimum beside them.
  const installments = page.getByRole('radio', { name: 'Installments', exact: true });
  await expect(installments).toBeDisabled();
  await expect(installments).toHaveAccessibleDescription('From ฿3,000.00');

  const plans = await addScarvesUntilInstallments(page);
  await expect(page.locator('.total-amount')).toHaveText('฿3,070.00');
  await expect(plans.getByRole('radio')).toHaveCount(2);
  // ฿3,070 over 3 months, the first plan, chosen already: the parts add up to it exactly, the first month taking the odd satang.
  await expect(plans.getByRole('radio', { name: '฿1,023.33 × 3 months First month ฿1,023.34 · Total ฿3,070.00' })).toBeChecked();
  await typeCard(page, { number: CARDS.installments });
  await expect(payButton(page)).toHaveText('Pay ฿3,070.00');
  await payButton(page).click();

  await expectPaid(page, '฿3,070.00');
  // The success names the plan, in the words it was chosen in.
  await expect(page.locator('satang-checkout').getByRole('status')).toContainText('Paid in installments: ฿1,023.33 × 3 months.');
  const charge = await onlyChargeFor(request, reference);
  expect(charge).toMatchObject({
    status: 'SUCCEEDED',
    amount: 307_000,
    paymentMethod: { paymentMethodType: 'CARD_INSTALLMENTS', cardInstallments: { installmentPeriod: 3 } },
  });
});
