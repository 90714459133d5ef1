/** Styles the payment link pages add to `SANDBOX_PAGES_CSS`; served next to it. */
export const PAYMENT_LINK_PAGES_CSS = `fieldset {
  margin: 0 0 1.25rem;
  padding: 0;
  border: 0;
  min-width: 0;
}

legend {
  margin: 0 0 0.5rem;
  padding: 0;
  font-size: 1.0625rem;
  font-weight: 700;
}

.choices {
  display: grid;
  gap: 0.5rem;
  margin: 0 0 0.5rem;
  padding: 0;
  list-style: none;
}

.choice-group {
  margin: 0.75rem 0 0.25rem;
  color: var(--muted);
  font-size: 0.875rem;
  font-weight: 600;
}

label.choice {
  display: flex;
  align-items: center;
  gap: 0.75rem;
  min-height: 3rem;
  margin: 0;
  padding: 0.5rem 0.875rem;
  border: 2px solid var(--border);
  border-radius: 10px;
  background: var(--surface);
  cursor: pointer;
}

label.choice:has(input:checked) {
  border-color: var(--primary);
  background: var(--surface-muted);
}

.choice input {
  flex: none;
  width: 1.25rem;
  height: 1.25rem;
  margin: 0;
  accent-color: var(--primary);
}


select[aria-invalid="true"] { border-color: var(--danger); }

.field-row {
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(6.5rem, 1fr));
  gap: 0 0.75rem;
}

/* Inputs of a row line up even when one field has a longer label or an error above it. */
.field-row > .field { display: flex; flex-direction: column; }
.field-row > .field > input { margin-top: auto; }

.order-items {
  margin: 0 0 1rem;
  padding: 0;
  list-style: none;
}

.order-item {
  display: flex;
  justify-content: space-between;
  align-items: baseline;
  gap: 1rem;
  padding: 0.5rem 0;
  border-bottom: 1px solid var(--border);
}

.order-item p { margin: 0; }
.order-item-name { font-weight: 600; overflow-wrap: anywhere; }
.order-item-meta { color: var(--muted); font-size: 0.875rem; overflow-wrap: anywhere; }
.order-item-total { font-weight: 600; font-variant-numeric: tabular-nums; white-space: nowrap; }

.qr {
  display: block;
  width: min(100%, 16rem);
  height: auto;
  margin: 0 auto 1rem;
  padding: 0.5rem;
  border-radius: 8px;
  background: #ffffff;
  image-rendering: pixelated;
}

.button-secondary { background: var(--surface); color: var(--primary); border-color: var(--primary); }
.button-secondary:hover { background: var(--surface-muted); }

.notice-info { color: var(--text); background: var(--surface-muted); border-color: var(--primary); }
.notice a { color: inherit; font-weight: 600; }

.test-cards { margin: 1.25rem 0 0; }
.test-cards ul { margin: 0.5rem 0 0; padding-left: 1.25rem; font-size: 0.875rem; }
`;
