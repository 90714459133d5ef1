import { afterEach, describe, expect, it } from 'vitest';
import '../../../src/elements/card.js';
import type { SatangCardForm } from '../../../src/elements/card.js';

/**
 * `<satang-card-form>`'s own `disabled`, set and cleared by the page (as it does while a payment
 * runs): Lit reflects it to the attribute in an update, after the template was made, and the form
 * hears of the attribute then; the fields must follow it both ways, with or without a disabled
 * `<fieldset>` around them.
 */

afterEach(() => {
  document.body.replaceChildren();
});

async function mount(parent: HTMLElement = document.body): Promise<SatangCardForm> {
  const element = document.createElement('satang-card-form');
  element.setAttribute('locale', 'en');
  parent.append(element);
  await element.updateComplete;
  return element;
}

/** Whether each of the form's inputs is disabled, once the element says it is up to date. */
async function fieldsDisabled(element: SatangCardForm): Promise<boolean[]> {
  expect(await element.updateComplete, 'no update left pending').toBe(true);
  return [...element.shadowRoot!.querySelectorAll('input')].map((input) => input.disabled);
}

describe('<satang-card-form disabled>', () => {
  it('disables its fields while the page says so, and enables them again', async () => {
    const element = await mount();
    element.disabled = true;
    expect(await fieldsDisabled(element)).toEqual([true, true, true, true]);
    element.disabled = false;
    expect(await fieldsDisabled(element)).toEqual([false, false, false, false]);
    element.disabled = true;
    expect(await fieldsDisabled(element)).toEqual([true, true, true, true]);
  });

  it('stays disabled inside a disabled fieldset when the page clears its own disabled', async () => {
    const fieldset = document.createElement('fieldset');
    document.body.append(fieldset);
    const element = await mount(fieldset);
    element.disabled = true;
    fieldset.disabled = true;
    expect(await fieldsDisabled(element)).toEqual([true, true, true, true]);
    element.disabled = false;
    expect(await fieldsDisabled(element)).toEqual([true, true, true, true]);
    fieldset.disabled = false;
    expect(await fieldsDisabled(element)).toEqual([false, false, false, false]);
  });
});
