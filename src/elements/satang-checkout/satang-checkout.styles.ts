import { css } from 'lit';
import { tokens } from '../shared-styles.js';

/** The checkout's first render: the picker, the card form's place, the notice and the pay button. The rest is in `payment.styles.ts`. */
export const styles = [
  tokens,
  // The chosen method: a thicker accent border (drawn inward, so no label moves or wraps) and a tint of the accent, with
  // the radio's dot, so it reads in every theme (not by colour alone). A busy pay button keeps its colours: it says "Processing".
  css`
    .container,.form{display:grid;gap:calc(var(--satang-space,12px) * 1.5)}
    .container{background:var(--_surface);align-content:center}
    :host([theme=dark]) .container{padding:calc(var(--satang-space,12px) * 1.5);border-radius:var(--satang-radius,8px)}
    @media (prefers-color-scheme:dark){:host([theme=auto]) .container{padding:calc(var(--satang-space,12px) * 1.5);border-radius:var(--satang-radius,8px)}
    }
    fieldset{margin:0;padding:0;border:0;min-width:0}
    legend{font-weight:600;margin-block-end:8px;padding:0}
    .methods{display:grid;gap:8px;grid-template-columns:repeat(auto-fit,minmax(min(100%,192px),1fr))}
    .method{display:flex;align-items:center;gap:8px;min-height:var(--satang-field-height,48px);padding:0 10px;margin:0;font-weight:500;line-height:1.3;background:var(--_field);border:1px solid var(--_border);border-radius:var(--satang-radius,8px);cursor:pointer}
    .method:has(input:checked){border-color:var(--_accent);box-shadow:inset 0 0 0 1px var(--_accent);background:color-mix(in srgb,var(--_accent) 14%,var(--_field))}
    .method:has(input:focus-visible){outline:2px solid var(--_accent);outline-offset:2px}
    .method input{width:20px;min-height:20px;margin:0;flex:none;accent-color:var(--_accent)}
    .mark{width:24px;height:24px;flex:none}
    .glyph{fill:none;stroke:currentColor;stroke-width:1.8;stroke-linejoin:round;stroke-linecap:round}
    .details{display:grid;gap:var(--satang-space,12px)}
    .notice,.progress{margin:0;color:var(--_muted)}
    .note{font-size:.875em}
    .message{padding:10px 12px;border-radius:var(--satang-radius,8px);border:1px solid var(--_error);color:var(--_error)}
    .message:focus{outline:2px solid var(--_error);outline-offset:2px}
    .pay{min-height:var(--satang-field-height,48px);border-radius:var(--satang-radius,8px);font-weight:700;border:0;background:var(--_accent);color:var(--_on-accent);font-size:1.0625em}
    .pay:disabled{opacity:0.55;cursor:not-allowed}
    .pay[aria-busy=true]{opacity:1;cursor:progress}
    .config-error{padding:12px;border:2px dashed var(--_error);color:var(--_error);border-radius:var(--satang-radius,8px)}
    @media (forced-colors:active){.method:has(input:checked){outline:3px solid Highlight;outline-offset:2px}
    .pay{border:2px solid ButtonText}
    }
  `,
];
