import { css } from 'lit';

/**
 * The styles of what `<satang-checkout>` shows after its first render: the other methods' panels,
 * outcomes, conflicts and the way out of a payment. Adopted into the checkout's shadow root with
 * the payment code (`pay-path.ts`), so the first download does not carry them.
 */
export const paymentStyles = css`
    /* A method this order cannot be paid with: muted, dashed, its reason under its name, within the choice's height. */
    .method:has(input:disabled) {
      flex-wrap: wrap;
      align-content: center;
      gap: 0 8px;
      color: var(--_muted);
      border-style: dashed;
      cursor: not-allowed;
    }
    .reason {
      flex-basis: 100%;
      padding-inline-start: 60px;
      font-size: 0.8125em;
      font-weight: 400;
    }
    .options {
      display: grid;
      gap: 8px;
    }
    .option {
      display: flex;
      align-items: center;
      gap: 10px;
      min-height: var(--satang-field-height, 48px);
      padding: 8px 12px;
      margin: 0;
      font-weight: 500;
      line-height: 1.4;
      background: var(--_field);
      border: 1px solid var(--_border);
      border-radius: var(--satang-radius, 8px);
      cursor: pointer;
    }
    /* Chosen: the border thickened inward, so nothing in the box moves. */
    .option:has(input:checked) {
      border-color: var(--_accent);
      box-shadow: inset 0 0 0 1px var(--_accent);
      background: color-mix(in srgb, var(--_accent) 10%, var(--_field));
    }
    .option:has(input:focus-visible) {
      outline: 2px solid var(--_accent);
      outline-offset: 2px;
    }
    .option input {
      width: 20px;
      min-height: 20px;
      margin: 0;
      flex: none;
      accent-color: var(--_accent);
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
    .secondary {
      min-height: var(--satang-field-height, 48px);
      border-radius: var(--satang-radius, 8px);
      font-weight: 700;
      padding: 0 20px;
      background: transparent;
      color: var(--_accent);
      border: 1px solid var(--_accent);
    }
    .outcome {
      padding: calc(var(--satang-space, 12px) * 1.5);
      border-radius: var(--satang-radius, 8px);
      border: 1px solid currentColor;
    }
    .outcome h2 {
      margin: 0 0 4px;
      font-size: 1.25em;
    }
    .outcome p {
      margin: 0 0 var(--satang-space, 12px);
    }
    .outcome .pay {
      padding: 0 20px;
    }
    /*
     * A success stands in the box the form filled (kept at its height so the page does not move):
     * centred under its mark, it reads as the confirmation it is, not as a panel left half empty.
     */
    .success {
      color: var(--_success);
      text-align: center;
      border-color: transparent;
    }
    .success .mark {
      display: block;
      width: 3.5em;
      height: 3.5em;
      margin: 0 auto var(--satang-space, 12px);
      fill: none;
      stroke: currentColor;
      stroke-width: 1.5;
      stroke-linecap: round;
      stroke-linejoin: round;
    }
    .failure {
      color: var(--_error);
    }
    /* A status line: focused for a screen reader to start there, drawn as text, never as a field. */
    .progress {
      display: flex;
      align-items: center;
      gap: 10px;
      outline: 0;
    }
    .spinner {
      width: 18px;
      height: 18px;
      flex: none;
      border-radius: 50%;
      border: 3px solid color-mix(in srgb, var(--_accent) 25%, transparent);
      border-top-color: var(--_accent);
      animation: satang-spin 0.9s linear infinite;
    }
    /* Waiting on the shopper at another page: a still ring, nothing turning. */
    .spinner.paused {
      animation: none;
      border-color: var(--_muted);
    }
    @keyframes satang-spin {
      to {
        transform: rotate(1turn);
      }
    }
    @media (prefers-reduced-motion: reduce) {
      .spinner {
        animation-duration: 3s;
      }
    }
    .link-button {
      display: flex;
      align-items: center;
      justify-content: center;
      text-decoration: none;
      padding: 0 20px;
    }
    .link-button:focus-visible {
      outline: 2px solid var(--_accent);
      outline-offset: 2px;
    }
    .message:has(> .info) {
      border-color: var(--_accent);
      color: var(--_text);
    }
    .message:has(> .info):focus {
      outline-color: var(--_accent);
    }
    @media (forced-colors: active) {
      .option:has(input:checked) {
        outline: 2px solid Highlight;
        outline-offset: 2px;
      }
    }
`;
