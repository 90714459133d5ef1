import { css } from 'lit';

/**
 * The styles of what `<satang-checkout>` shows after its first render: the other methods' panels,
 * outcomes, conflicts and the way out of a payment. Adopted into the checkout's shadow root with
 * the payment code (`pay-path.ts`), so the first download does not carry them.
 */
export const paymentStyles = css`
    .options {
      display: grid;
      gap: 8px;
    }
    .option {
      display: flex;
      align-items: center;
      gap: 10px;
      min-height: var(--satang-field-height);
      padding: 8px 12px;
      margin: 0;
      font-weight: 500;
      line-height: 1.4;
      background: var(--satang-color-field);
      border: 1px solid var(--satang-color-border);
      border-radius: var(--satang-radius);
      cursor: pointer;
    }
    /* Chosen: the border thickened inward, so nothing in the box moves. */
    .option:has(input:checked) {
      border-color: var(--satang-color-accent);
      box-shadow: inset 0 0 0 1px var(--satang-color-accent);
      background: color-mix(in srgb, var(--satang-color-accent) 10%, var(--satang-color-field));
    }
    .option:has(input:focus-visible) {
      outline: 2px solid var(--satang-color-accent);
      outline-offset: 2px;
    }
    .option input {
      width: 20px;
      min-height: 20px;
      margin: 0;
      flex: none;
      accent-color: var(--satang-color-accent);
    }
    .option .mark {
      width: 24px;
      height: 24px;
      flex: none;
    }
    .option .hint {
      display: block;
      font-weight: 400;
    }
    .notice p {
      margin: 0 0 8px;
    }
    .others {
      display: grid;
      grid-template-columns: repeat(auto-fit, minmax(min(100%, 160px), 1fr));
      gap: 8px;
    }
    .others .secondary {
      display: inline-flex;
      align-items: center;
      justify-content: center;
      gap: 8px;
      padding: 0 12px;
    }
    .secondary {
      min-height: var(--satang-field-height);
      border-radius: var(--satang-radius);
      font-weight: 700;
      padding: 0 20px;
      background: transparent;
      color: var(--satang-color-accent);
      border: 1px solid var(--satang-color-accent);
    }
    .outcome {
      padding: calc(var(--satang-space) * 1.5);
      border-radius: var(--satang-radius);
      border: 1px solid currentColor;
    }
    .outcome h2 {
      margin: 0 0 4px;
      font-size: 1.25em;
    }
    .outcome p {
      margin: 0 0 var(--satang-space);
    }
    .outcome .pay {
      padding: 0 20px;
    }
    .success {
      color: var(--satang-color-success);
    }
    .failure {
      color: var(--satang-color-error);
    }
    @media (forced-colors: active) {
      .option:has(input:checked) {
        outline: 2px solid Highlight;
        outline-offset: 2px;
      }
    }
`;
