/**
 * The first half of the hosted pages' stylesheet: colours (light and dark), the page, the card and
 * the summary list. {@link SANDBOX_PAGES_CSS} adds the controls.
 */
export const PAGE_THEME_CSS = `:root {
  color-scheme: light dark;
  --bg: #eef1f5;
  --surface: #ffffff;
  --surface-muted: #f5f7fa;
  --text: #16202b;
  --muted: #4a5563;
  --border: #d5dbe3;
  --control-border: #6b7684;
  --primary: #0a58b0;
  --primary-hover: #084890;
  --on-primary: #ffffff;
  --success: #0b6b3a;
  --success-hover: #08552e;
  --on-success: #ffffff;
  --danger: #b3261e;
  --danger-bg: #fdecea;
  --success-bg: #e7f5ec;
  --focus: #1d4ed8;
  --banner-bg: #fff1c2;
  --banner-text: #4d3300;
  --banner-border: #d9a400;
  --shadow: 0 1px 2px rgb(16 24 40 / 0.06), 0 8px 24px rgb(16 24 40 / 0.08);
}

@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0e1318;
    --surface: #19212a;
    --surface-muted: #212b36;
    --text: #e8edf2;
    --muted: #aab4bf;
    --border: #33404d;
    --control-border: #8a96a3;
    --primary: #8ab4f8;
    --primary-hover: #a8c7fa;
    --on-primary: #0b1b33;
    --success: #6fd69b;
    --success-hover: #8fe3b2;
    --on-success: #05261a;
    --danger: #ffb4ab;
    --danger-bg: #3b1512;
    --success-bg: #0f2d1d;
    --focus: #93c5fd;
    --banner-bg: #3a2c00;
    --banner-text: #ffe08a;
    --banner-border: #b38800;
    --shadow: none;
  }
}

*, *::before, *::after { box-sizing: border-box; }

html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }

body {
  margin: 0;
  min-height: 100vh;
  background: var(--bg);
  color: var(--text);
  font-family: system-ui, -apple-system, "Segoe UI", "Sarabun", "Noto Sans Thai", "Leelawadee UI", "Thonburi", Roboto, "Helvetica Neue", Arial, sans-serif;
  font-size: 1rem;
  line-height: 1.6;
}

.sandbox-banner {
  margin: 0;
  padding: 0.5rem 1rem;
  background: var(--banner-bg);
  color: var(--banner-text);
  border-bottom: 2px solid var(--banner-border);
  text-align: center;
  font-size: 0.9375rem;
  font-weight: 600;
}

.sandbox-banner p { margin: 0; }

main {
  max-width: 30rem;
  margin: 0 auto;
  padding: 1.25rem 0.75rem 3rem;
}

.page-wide main { max-width: 44rem; }

.card {
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: 14px;
  box-shadow: var(--shadow);
  padding: 1.25rem 1rem;
}

.card + .card { margin-top: 1rem; }

.card > :last-child { margin-bottom: 0; }

.tone-succeeded { border-top: 4px solid var(--success); }
.tone-failed { border-top: 4px solid var(--danger); }
.tone-pending { border-top: 4px solid var(--primary); }

.issuer {
  display: flex;
  align-items: center;
  gap: 0.625rem;
  margin: 0 0 1rem;
  color: var(--muted);
  font-size: 0.875rem;
  font-weight: 600;
  letter-spacing: 0.02em;
}

.issuer-mark {
  display: inline-grid;
  place-items: center;
  flex: none;
  width: 2.25rem;
  height: 2.25rem;
  border-radius: 10px;
  background: var(--primary);
  color: var(--on-primary);
  font-size: 1.125rem;
  font-weight: 700;
}

h1 {
  margin: 0 0 0.75rem;
  font-size: 1.375rem;
  line-height: 1.4;
  overflow-wrap: anywhere;
}

h2 {
  margin: 0 0 0.75rem;
  font-size: 1.125rem;
  line-height: 1.4;
}

p { margin: 0 0 1rem; }

.lede { color: var(--muted); overflow-wrap: anywhere; }

.summary {
  margin: 0 0 1.25rem;
  padding: 0.75rem 1rem;
  background: var(--surface-muted);
  border: 1px solid var(--border);
  border-radius: 10px;
}

.summary div {
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  align-items: baseline;
  gap: 0 1rem;
  padding: 0.25rem 0;
}

.summary div + div { border-top: 1px solid var(--border); }

.summary dt { color: var(--muted); font-size: 0.9375rem; }

.summary dd {
  margin: 0;
  font-weight: 600;
  text-align: right;
  overflow-wrap: anywhere;
  min-width: 0;
}

.summary .summary-amount dd {
  font-size: 1.5rem;
  font-variant-numeric: tabular-nums;
}

.mono, code {
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  font-size: 0.875em;
  overflow-wrap: anywhere;
  word-break: break-all;
}

.badge {
  display: inline-block;
  padding: 0 0.625rem;
  border: 1px solid currentColor;
  border-radius: 999px;
  font-size: 0.8125rem;
  font-weight: 700;
  letter-spacing: 0.02em;
  white-space: nowrap;
}

.badge-succeeded { color: var(--success); background: var(--success-bg); }
.badge-failed, .badge-expired { color: var(--danger); background: var(--danger-bg); }
.badge-pending { color: var(--primary); }

`;
