import { css } from 'lit';

/**
 * Design tokens and base rules every Satang element shares.
 *
 * A page themes the elements with `--satang-*` custom properties set on an element or on any
 * ancestor (`:root`, a wrapper): the elements never set a public name themselves, so a token set
 * anywhere above wins over the default. A colour, whose default depends on the theme, is read once
 * on `:host` into a private alias (`--_accent: var(--satang-color-accent, #0b57d0)`; `theme="dark"`,
 * and `auto` in a dark system theme, change only the defaults) that the rules use; the other
 * tokens are read where they are used, with their default (`var(--satang-radius, 8px)`), which is
 * the smaller CSS for them. An element inside another one (the card form and the QR code in the
 * checkout, marked `data-satang-nested`) resolves no colour of its own: it inherits the aliases of
 * the element around it, and with them the page's theme.
 *
 * The tokens below are documented for every element (`custom-elements-manifest.config.mjs` adds
 * them to each one's `cssProperties`); the light default is in brackets, the dark one in words.
 *
 * @cssprop [--satang-color-accent=#0b57d0] - Buttons, the chosen method, links, focus (#a8c7fa in the dark theme).
 * @cssprop [--satang-color-on-accent=#ffffff] - Text on the accent colour (#062e6f dark).
 * @cssprop [--satang-color-text=#1b1c1f] - Text (#e3e3e8 dark).
 * @cssprop [--satang-color-muted=#5b5f66] - Hints, notes, progress, the countdown (#b3b7bf dark).
 * @cssprop [--satang-color-surface=#ffffff] - The element's background (#1d1f23 dark).
 * @cssprop [--satang-color-field=#ffffff] - Fields', methods' and options' background (#25282d dark).
 * @cssprop [--satang-color-border=#8a8f98] - Borders of fields, methods and options (#8e939b dark).
 * @cssprop [--satang-color-error=#b3261e] - Errors, declines, invalid fields, the countdown's last minute (#f2b8b5 dark).
 * @cssprop [--satang-color-success=#146c2e] - Success (#8fd9a0 dark).
 * @cssprop [--satang-radius=8px] - Corner radius of fields, buttons, panels.
 * @cssprop [--satang-space=12px] - Spacing unit: gaps, and 1.5 × this around the dark theme's content.
 * @cssprop [--satang-font-family=system-ui, -apple-system, 'Segoe UI', 'Noto Sans Thai', 'Sarabun', 'Leelawadee UI', Tahoma, sans-serif] - Font stack (Thai-friendly by default).
 * @cssprop [--satang-font-size=16px] - Base font size.
 * @cssprop [--satang-line-height=1.6] - Line height (room for Thai vowels and tones).
 * @cssprop [--satang-field-height=48px] - Height of fields, method choices and buttons.
 * @cssprop [--satang-focus-ring=0 0 0 3px color-mix(in srgb, var(--satang-color-accent) 35%, transparent)] - A `box-shadow` drawn around a focused field or button, outside its 2px accent outline.
 */
export const tokens = css`
  :host{display:block;color:var(--_text);font-family:var(--satang-font-family,system-ui,-apple-system,'Segoe UI','Noto Sans Thai','Sarabun','Leelawadee UI',Tahoma,sans-serif);font-size:var(--satang-font-size,16px);line-height:var(--satang-line-height,1.6)}
  :host(:not([data-satang-nested])){color-scheme:light;--_accent:var(--satang-color-accent,#0b57d0);--_on-accent:var(--satang-color-on-accent,#fff);--_text:var(--satang-color-text,#1b1c1f);--_muted:var(--satang-color-muted,#5b5f66);--_surface:var(--satang-color-surface,#fff);--_field:var(--satang-color-field,#fff);--_border:var(--satang-color-border,#8a8f98);--_error:var(--satang-color-error,#b3261e);--_success:var(--satang-color-success,#146c2e)}
  :host([hidden]){display:none}
  :host([theme=dark]:not([data-satang-nested])){color-scheme:dark;--_accent:var(--satang-color-accent,#a8c7fa);--_on-accent:var(--satang-color-on-accent,#062e6f);--_text:var(--satang-color-text,#e3e3e8);--_muted:var(--satang-color-muted,#b3b7bf);--_surface:var(--satang-color-surface,#1d1f23);--_field:var(--satang-color-field,#25282d);--_border:var(--satang-color-border,#8e939b);--_error:var(--satang-color-error,#f2b8b5);--_success:var(--satang-color-success,#8fd9a0)}
  @media (prefers-color-scheme:dark){:host([theme=auto]:not([data-satang-nested])){color-scheme:dark;--_accent:var(--satang-color-accent,#a8c7fa);--_on-accent:var(--satang-color-on-accent,#062e6f);--_text:var(--satang-color-text,#e3e3e8);--_muted:var(--satang-color-muted,#b3b7bf);--_surface:var(--satang-color-surface,#1d1f23);--_field:var(--satang-color-field,#25282d);--_border:var(--satang-color-border,#8e939b);--_error:var(--satang-color-error,#f2b8b5);--_success:var(--satang-color-success,#8fd9a0)}
  }
  *{box-sizing:border-box}
  [hidden]{display:none!important}
  .visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
  label{display:block;font-weight:600;margin-block-end:4px}
  input,select{width:100%;min-height:var(--satang-field-height,48px);padding:0 12px;font:inherit;color:inherit;background:var(--_field);border:1px solid var(--_border);border-radius:var(--satang-radius,8px)}
  input:focus-visible,select:focus-visible,button:focus-visible{outline:2px solid var(--_accent);outline-offset:1px;box-shadow:var(--satang-focus-ring,0 0 0 3px color-mix(in srgb,var(--_accent) 35%,transparent))}
  input[aria-invalid=true]{border-color:var(--_error);border-width:2px}
  .hint{color:var(--_muted);font-size:.875em}
  .error{color:var(--_error);font-size:.875em;margin-block-start:4px}
  button{font:inherit;cursor:pointer}
  @media (prefers-reduced-motion:reduce){*{transition:none!important;animation:none!important}
  }
  @media (forced-colors:active){input[aria-invalid=true]{border-style:dashed}
  }
`;
