import { PAGE_THEME_CSS } from './page-theme-css.js';

/** The form controls, buttons, notices and lists of the hosted pages, after the theme. */
const PAGE_CONTROLS_CSS = `.field { margin: 0 0 1rem; }

label {
  display: block;
  margin-bottom: 0.25rem;
  font-weight: 600;
}

.hint {
  margin: 0 0 0.5rem;
  color: var(--muted);
  font-size: 0.9375rem;
}

.field-error {
  margin: 0 0 0.5rem;
  color: var(--danger);
  font-weight: 600;
}

input[type="text"], input[type="password"], textarea, select {
  display: block;
  width: 100%;
  min-height: 3rem;
  padding: 0.625rem 0.75rem;
  border: 2px solid var(--control-border);
  border-radius: 10px;
  background: var(--surface);
  color: var(--text);
  font: inherit;
}

textarea {
  resize: vertical;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  font-size: 0.875rem;
}

.otp-input {
  font-size: 1.5rem;
  letter-spacing: 0.35em;
  text-align: center;
  font-variant-numeric: tabular-nums;
}

input[aria-invalid="true"], textarea[aria-invalid="true"] { border-color: var(--danger); }

.actions {
  display: grid;
  gap: 0.75rem;
  margin-top: 1.25rem;
}

.button {
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 100%;
  min-height: 3rem;
  padding: 0.625rem 1.25rem;
  border: 2px solid transparent;
  border-radius: 10px;
  font: inherit;
  font-weight: 600;
  line-height: 1.3;
  text-align: center;
  text-decoration: none;
  cursor: pointer;
  transition: background-color 0.15s ease, border-color 0.15s ease, color 0.15s ease;
}

.button-primary { background: var(--primary); color: var(--on-primary); }
.button-primary:hover { background: var(--primary-hover); }
.button-success { background: var(--success); color: var(--on-success); }
.button-success:hover { background: var(--success-hover); }
.button-danger { background: var(--surface); color: var(--danger); border-color: var(--danger); }
.button-danger:hover { background: var(--danger-bg); }

.button-compact {
  width: auto;
  min-height: 2.75rem;
  padding: 0.375rem 1rem;
}

:focus-visible {
  outline: 3px solid var(--focus);
  outline-offset: 2px;
}

input[type="text"]:focus-visible, textarea:focus-visible { outline-offset: 1px; }

.notice {
  margin: 0 0 1rem;
  padding: 0.75rem 1rem;
  border: 1px solid;
  border-left-width: 4px;
  border-radius: 10px;
  overflow-wrap: anywhere;
}

.notice-error { color: var(--danger); background: var(--danger-bg); border-color: var(--danger); }
.notice-success { color: var(--success); background: var(--success-bg); border-color: var(--success); }

.pending {
  display: grid;
  gap: 0.75rem;
  margin: 0;
  padding: 0;
  list-style: none;
}

.pending-item {
  display: grid;
  gap: 0.5rem;
  padding: 0.875rem 1rem;
  border: 1px solid var(--border);
  border-radius: 12px;
  background: var(--surface-muted);
}

.pending-item p { margin: 0; }

.pending-amount {
  font-size: 1.125rem;
  font-weight: 700;
  font-variant-numeric: tabular-nums;
}

.pending-meta, .pending-note { color: var(--muted); font-size: 0.875rem; }

.pending-actions {
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  margin: 0;
}

details summary {
  min-height: 2.75rem;
  padding: 0.5rem 0;
  color: var(--primary);
  font-size: 0.875rem;
  font-weight: 600;
  cursor: pointer;
}

details code {
  display: block;
  padding: 0.5rem 0.75rem;
  border-radius: 8px;
  background: var(--surface);
  border: 1px solid var(--border);
}


.slip-image {
  display: block;
  width: 100%;
  max-width: 400px;
  height: auto;
  margin: 0 auto;
  border: 1px solid var(--border);
  border-radius: 10px;
  background: #ffffff;
}

.slip-raw {
  display: block;
  margin: 0 0 1rem;
  padding: 0.5rem 0.75rem;
  border-radius: 8px;
  background: var(--surface-muted);
  border: 1px solid var(--border);
}

.closing { margin: 1.25rem 0 0; color: var(--muted); text-align: center; }

/* The language switch sits in the banner: plain links, the current language marked. */
.sandbox-banner:has(.language-switch) {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: center;
  gap: 0.125rem 1rem;
}

.language-switch { font-weight: 400; }

.language-switch a {
  display: inline-block;
  min-height: 1.5rem;
  padding: 0.125rem 0.375rem;
  color: inherit;
}

.language-switch a[aria-current="true"] {
  font-weight: 700;
  text-decoration: none;
}

.visually-hidden {
  position: absolute !important;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  clip-path: inset(50%);
  white-space: nowrap;
  border: 0;
}

@media (min-width: 30em) {
  main { padding: 2.5rem 1rem 4rem; }
  .card { padding: 1.75rem 2rem; }
  h1 { font-size: 1.5rem; }
  .actions-pair { grid-template-columns: 1fr 1fr; }
}

@media (min-width: 40em) {
  .pending-item { grid-template-columns: minmax(0, 1fr) auto; align-items: start; }
  .pending-actions, .pending-note { grid-column: 2; grid-row: 1; }
}

@media (forced-colors: active) {
  .button, .badge, .issuer-mark { border: 2px solid ButtonText; }
  .sandbox-banner { border-bottom-color: CanvasText; }
}

@media (prefers-reduced-motion: reduce) {
  *, *::before, *::after {
    transition: none !important;
    animation: none !important;
    scroll-behavior: auto !important;
  }
}
`;

/**
 * The stylesheet of every hosted page, served at `STYLESHEET_HREF` (as `text/css`) because the
 * pages' CSP forbids inline styles. System fonts only, so nothing is fetched from elsewhere;
 * Thai-capable faces come before the generic fallback so Thai references render well.
 */
export const SANDBOX_PAGES_CSS = `${PAGE_THEME_CSS}${PAGE_CONTROLS_CSS}`;
