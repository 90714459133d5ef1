import { css } from 'lit';

/**
 * Design tokens and base rules every Satang element shares. Tokens are custom properties with
 * their defaults on `:host`, so a page themes all elements at once from outside:
 * `satang-checkout { --satang-color-accent: #0a7d32 }`. An element inside another one (the card
 * form in the checkout, marked `data-satang-nested`) sets no defaults of its own: it inherits the
 * tokens of the element around it, and with them the page's theme.
 */
export const tokens = css`
  :host {
    display: block;
    color: var(--satang-color-text);
    font-family: var(--satang-font-family);
    font-size: var(--satang-font-size);
    line-height: var(--satang-line-height);
  }
  :host(:not([data-satang-nested])) {
    color-scheme: light;
    --satang-color-accent: #0b57d0;
    --satang-color-on-accent: #ffffff;
    --satang-color-text: #1b1c1f;
    --satang-color-muted: #5b5f66;
    --satang-color-surface: #ffffff;
    --satang-color-field: #ffffff;
    --satang-color-border: #8a8f98;
    --satang-color-error: #b3261e;
    --satang-color-success: #146c2e;
    --satang-radius: 8px;
    --satang-space: 12px;
    --satang-font-family: system-ui, -apple-system, 'Segoe UI', 'Noto Sans Thai', 'Sarabun', 'Leelawadee UI', Tahoma, sans-serif;
    --satang-font-size: 16px;
    --satang-line-height: 1.6;
    --satang-field-height: 48px;
    --satang-focus-ring: 0 0 0 3px color-mix(in srgb, var(--satang-color-accent) 35%, transparent);
  }
  :host([hidden]) {
    display: none;
  }
  :host([theme='dark']:not([data-satang-nested])) {
    /* The browser's own controls (radio buttons, autofill) in the theme's colours too. */
    color-scheme: dark;
    --satang-color-accent: #a8c7fa;
    --satang-color-on-accent: #062e6f;
    --satang-color-text: #e3e3e8;
    --satang-color-muted: #b3b7bf;
    --satang-color-surface: #1d1f23;
    --satang-color-field: #25282d;
    --satang-color-border: #8e939b;
    --satang-color-error: #f2b8b5;
    --satang-color-success: #8fd9a0;
  }
  @media (prefers-color-scheme: dark) {
    :host([theme='auto']:not([data-satang-nested])) {
      color-scheme: dark;
      --satang-color-accent: #a8c7fa;
      --satang-color-on-accent: #062e6f;
      --satang-color-text: #e3e3e8;
      --satang-color-muted: #b3b7bf;
      --satang-color-surface: #1d1f23;
      --satang-color-field: #25282d;
      --satang-color-border: #8e939b;
      --satang-color-error: #f2b8b5;
      --satang-color-success: #8fd9a0;
    }
  }
  * {
    box-sizing: border-box;
  }
  [hidden] {
    display: none !important;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  label {
    display: block;
    font-weight: 600;
    margin-block-end: 4px;
  }
  input,
  select {
    width: 100%;
    min-height: var(--satang-field-height);
    padding: 0 12px;
    font: inherit;
    color: inherit;
    background: var(--satang-color-field);
    border: 1px solid var(--satang-color-border);
    border-radius: var(--satang-radius);
  }
  input:focus-visible,
  select:focus-visible,
  button:focus-visible {
    outline: 2px solid var(--satang-color-accent);
    outline-offset: 1px;
    box-shadow: var(--satang-focus-ring);
  }
  input[aria-invalid='true'] {
    border-color: var(--satang-color-error);
    border-width: 2px;
  }
  .hint {
    color: var(--satang-color-muted);
    font-size: 0.875em;
  }
  .error {
    color: var(--satang-color-error);
    font-size: 0.875em;
    margin-block-start: 4px;
  }
  button {
    font: inherit;
    cursor: pointer;
  }
  @media (prefers-reduced-motion: reduce) {
    * {
      transition: none !important;
      animation: none !important;
    }
  }
  @media (forced-colors: active) {
    input[aria-invalid='true'] {
      border-style: dashed;
    }
  }
`;
