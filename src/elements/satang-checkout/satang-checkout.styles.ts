import { css } from 'lit';
import { tokens } from '../shared-styles.js';

export const styles = [
  tokens,
  css`
    .container,
    .form {
      display: grid;
      gap: calc(var(--satang-space) * 1.5);
    }
    .container {
      background: var(--satang-color-surface);
    }
    fieldset {
      margin: 0;
      padding: 0;
      border: 0;
      min-width: 0;
    }
    legend {
      font-weight: 600;
      margin-block-end: 8px;
      padding: 0;
    }
    .methods,
    .options {
      display: grid;
      gap: 8px;
    }
    .methods {
      grid-template-columns: repeat(auto-fit, minmax(140px, 1fr));
    }
    .method,
    .option {
      display: flex;
      align-items: center;
      gap: 10px;
      min-height: var(--satang-field-height);
      padding: 0 12px;
      margin: 0;
      font-weight: 500;
      background: var(--satang-color-field);
      border: 1px solid var(--satang-color-border);
      border-radius: var(--satang-radius);
      cursor: pointer;
    }
    .method:has(input:checked),
    .option:has(input:checked) {
      border: 2px solid var(--satang-color-accent);
    }
    .method input,
    .option input {
      width: 20px;
      min-height: 20px;
      margin: 0;
      accent-color: var(--satang-color-accent);
    }
    .details {
      display: grid;
      gap: var(--satang-space);
    }
    .notice,
    .progress {
      margin: 0;
      color: var(--satang-color-muted);
    }
    .message {
      padding: 10px 12px;
      border-radius: var(--satang-radius);
      border: 1px solid var(--satang-color-error);
      color: var(--satang-color-error);
    }
    .pay,
    .secondary {
      min-height: var(--satang-field-height);
      border-radius: var(--satang-radius);
      font-weight: 700;
    }
    .pay {
      border: 0;
      background: var(--satang-color-accent);
      color: var(--satang-color-on-accent);
      font-size: 1.0625em;
    }
    .pay:disabled {
      opacity: 0.55;
      cursor: not-allowed;
    }
    .secondary {
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
    .success {
      color: var(--satang-color-success);
    }
    .failure {
      color: var(--satang-color-error);
    }
    .config-error {
      padding: 12px;
      border: 2px dashed var(--satang-color-error);
      color: var(--satang-color-error);
      border-radius: var(--satang-radius);
    }
    @media (forced-colors: active) {
      .method:has(input:checked),
      .option:has(input:checked) {
        outline: 2px solid Highlight;
      }
      .pay {
        border: 2px solid ButtonText;
      }
    }
  `,
];
