import { css } from 'lit';
import { tokens } from '../shared-styles.js';

export const styles = [
  tokens,
  css`
    .container {
      display: flex;
      flex-direction: column;
      align-items: center;
      gap: 8px;
      padding: var(--satang-space, 12px);
      text-align: center;
      background: var(--_surface);
      border-radius: var(--satang-radius, 8px);
    }
    p {
      margin: 0;
    }
    .title,
    .heading {
      font-weight: 600;
    }
    h2.title {
      margin: 0;
      font-size: 1.125em;
    }
    .title:focus-visible {
      outline: 2px solid var(--_accent);
      outline-offset: 2px;
    }
    /* On a phone: the steps to pay from the same phone, left-aligned and numbered. */
    .steps {
      display: grid;
      gap: 4px;
      justify-items: start;
      text-align: start;
      padding: var(--satang-space, 12px);
      border-radius: var(--satang-radius, 8px);
      background: color-mix(in srgb, var(--_accent) 8%, var(--_surface));
    }
    .save.button {
      display: inline-flex;
      align-items: center;
      min-height: var(--satang-field-height, 48px);
      padding: 0 16px;
      margin: 4px 0;
      border-radius: var(--satang-radius, 8px);
      background: var(--_accent);
      color: var(--_on-accent);
      text-decoration: none;
    }
    .amount {
      font-size: 1.75em;
      font-weight: 700;
      font-variant-numeric: tabular-nums;
    }
    /* Scanners want dark modules on light, whatever the page's theme. */
    .qr {
      width: var(--satang-qr-size, 240px);
      max-width: 100%;
      aspect-ratio: 1;
      background: #fff;
      border-radius: var(--satang-radius, 8px);
      overflow: hidden;
      forced-color-adjust: none;
      transition:
        opacity 0.3s,
        filter 0.3s;
    }
    .qr svg,
    .qr img {
      display: block;
      width: 100%;
      height: 100%;
      forced-color-adjust: none;
    }
    .qr.loading {
      background: color-mix(in srgb, var(--_muted) 20%, #fff);
      animation: pulse 1.2s ease-in-out infinite alternate;
    }
    .qr.expired {
      opacity: 0.15;
      filter: blur(4px);
    }
    @keyframes pulse {
      to {
        opacity: 0.5;
      }
    }
    .muted {
      color: var(--_muted);
    }
    .countdown {
      font-variant-numeric: tabular-nums;
    }
    /* The last minute: larger and bolder as well as coloured, so it stands out without colour too. */
    .countdown.urgent {
      color: var(--_error);
      font-size: 1.25em;
      font-weight: 700;
    }
    .save {
      color: var(--_accent);
      font-weight: 600;
    }
    .status::before {
      content: '';
      display: inline-block;
      width: 0.6em;
      height: 0.6em;
      margin-inline-end: 0.5em;
      border-radius: 50%;
      background: var(--_accent);
      animation: pulse 1s ease-in-out infinite alternate;
    }
    .expired:not(.qr) {
      font-weight: 600;
    }
    .renew {
      min-height: var(--satang-field-height, 48px);
      padding: 0 20px;
      color: var(--_on-accent);
      background: var(--_accent);
      border: 0;
      border-radius: var(--satang-radius, 8px);
    }
    /* A secondary action: outlined, under the code. The file input inside stays focusable. */
    .slip-button {
      position: relative;
      display: inline-flex;
      align-items: center;
      min-height: var(--satang-field-height, 48px);
      margin: 4px 0 0;
      padding: 0 16px;
      color: var(--_accent);
      border: 1px solid currentColor;
      border-radius: var(--satang-radius, 8px);
      cursor: pointer;
    }
    .slip-button input {
      min-height: 0;
      padding: 0;
      border: 0;
    }
    .slip-button:has(:focus-visible) {
      outline: 2px solid var(--_accent);
      outline-offset: 1px;
      box-shadow: var(--satang-focus-ring, 0 0 0 3px color-mix(in srgb, var(--_accent) 35%, transparent));
    }
    .slip-button:has(:disabled) {
      opacity: 0.6;
      cursor: progress;
    }
    .result {
      display: grid;
      gap: 4px;
    }
    .paid .heading {
      color: var(--_success);
    }
    .failed .heading,
    .error {
      color: var(--_error);
    }
    @media (forced-colors: active) {
      .renew {
        border: 1px solid ButtonText;
      }
      .status::before {
        background: CanvasText;
      }
    }
  `,
];
