import { css } from 'lit';
import { tokens } from '../shared-styles.js';

export const styles = [
  tokens,
  // Label, hint, input and error of side-by-side fields share rows: the inputs line up however long a hint is in either language.
  // The number leaves room for the brand's mark (8px, 36px, 8px) and, in a narrow field, takes a smaller size so the
  // longest number (19 digits and their spaces: about 14.3em) shows whole beside it.
  css`
    .form{display:grid;gap:var(--satang-space,12px)}
    .row{display:grid;grid-template-columns:1fr 1fr;grid-template-rows:repeat(4,auto);column-gap:var(--satang-space,12px)}
    .row>.field{display:grid;grid-row:span 4;grid-template-rows:subgrid;row-gap:0;align-content:start}
    .control{position:relative}
    .number .control{container-type:inline-size}
    .number input{padding-inline-end:52px;letter-spacing:0.04em;font-variant-numeric:tabular-nums;font-size:min(1em,calc((100cqi - 66px) / 14.5))}
    .brand{position:absolute;inset-inline-end:8px;inset-block:12px;display:grid;place-items:center;padding:0 8px;border-radius:calc(var(--satang-radius,8px) / 2);background:var(--_accent);color:var(--_on-accent);font-size:0.75em;font-weight:700;letter-spacing:0.05em}
    .brand.logo{padding:0;background:none}
    .brand .mark{height:100%;width:auto;background:var(--satang-color-card-brand,#fff);border-radius:3px;box-shadow:0 0 0 1px var(--_border)}
    @media (max-width:340px){.row{grid-template-columns:1fr;grid-template-rows:repeat(8,auto);row-gap:var(--satang-space,12px)}
    }
  `,
];
