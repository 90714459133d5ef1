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
      color: var(--satang-color-muted);
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
    .progress {
      display: flex;
      align-items: center;
      gap: 10px;
    }
    .spinner {
      width: 18px;
      height: 18px;
      flex: none;
      border-radius: 50%;
      border: 3px solid color-mix(in srgb, var(--satang-color-accent) 25%, transparent);
      border-top-color: var(--satang-color-accent);
      animation: satang-spin 0.9s linear infinite;
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
      outline: 2px solid var(--satang-color-accent);
      outline-offset: 2px;
    }
    .message:has(> .info) {
      border-color: var(--satang-color-accent);
      color: var(--satang-color-text);
    }
    .message:has(> .info):focus {
      outline-color: var(--satang-color-accent);
    }
    @media (forced-colors: active) {
      .option:has(input:checked) {
        outline: 2px solid Highlight;
        outline-offset: 2px;
      }
    }
`;
