import { css } from 'lit';
import { tokens } from '../shared-styles.js';

export const styles = [
  tokens,
  // Label, hint, input and error of side-by-side fields share rows: the inputs line up however long a hint is in either language.
  css`
    .form{display:grid;gap:var(--satang-space)}
    .row{display:grid;grid-template-columns:1fr 1fr;grid-template-rows:repeat(4,auto);column-gap:var(--satang-space)}
    .row>.field{display:grid;grid-row:span 4;grid-template-rows:subgrid;row-gap:0;align-content:start}
    .control{position:relative}
    .number input{padding-inline-end:96px;letter-spacing:0.04em;font-variant-numeric:tabular-nums}
    .brand{position:absolute;inset-inline-end:8px;inset-block:8px;display:grid;place-items:center;padding:0 8px;border-radius:calc(var(--satang-radius) / 2);background:var(--satang-color-accent);color:var(--satang-color-on-accent);font-size:0.75em;font-weight:700;letter-spacing:0.05em}
    .brand.logo{padding:0;background:none}
    .brand .mark{height:100%;width:auto;background:#fff;border-radius:3px;box-shadow:0 0 0 1px var(--satang-color-border)}
    @media (max-width:340px){.row{grid-template-columns:1fr;grid-template-rows:repeat(8,auto);row-gap:var(--satang-space)}
    }
  `,
];
