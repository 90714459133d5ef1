/**
 * Rules the dashboard adds to the hosted pages' stylesheet (`SANDBOX_PAGES_CSS`): a wider
 * layout, a navigation bar, data tables, paging and compact action forms. It reuses the same
 * custom properties, so light, dark and forced-colours modes follow.
 */
export const DASHBOARD_CSS = `
.dashboard main { max-width: 76rem; }

.dashboard-header {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.5rem 1rem;
  margin: 0 0 1rem;
}

.dashboard-header .issuer { margin: 0; }
.dashboard-header .issuer a { color: inherit; text-decoration: none; }

.dashboard-account {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem 0.75rem;
  margin: 0;
  color: var(--muted);
  font-size: 0.875rem;
}

.dashboard-account form { margin: 0; }

.dashboard-nav ul {
  display: flex;
  flex-wrap: wrap;
  gap: 0.25rem 0.5rem;
  margin: 0 0 1.25rem;
  padding: 0;
  list-style: none;
}

.dashboard-nav a {
  display: inline-block;
  padding: 0.375rem 0.875rem;
  border: 1px solid var(--border);
  border-radius: 999px;
  background: var(--surface);
  color: var(--primary);
  font-weight: 600;
  text-decoration: none;
}

.dashboard-nav a:hover { border-color: var(--primary); }
.dashboard-nav a[aria-current="page"] { background: var(--primary); border-color: var(--primary); color: var(--on-primary); }

.table-wrap { overflow-x: auto; margin: 0 0 1rem; }

.data-table {
  width: 100%;
  border-collapse: collapse;
  font-size: 0.9375rem;
}

.data-table caption {
  margin-bottom: 0.5rem;
  text-align: left;
  font-weight: 700;
}

.data-table th, .data-table td {
  padding: 0.5rem 0.625rem;
  border-bottom: 1px solid var(--border);
  text-align: left;
  vertical-align: top;
}

.data-table th { color: var(--muted); font-size: 0.8125rem; font-weight: 600; white-space: nowrap; }
.data-table tbody tr:hover { background: var(--surface-muted); }
.data-table .amount { font-variant-numeric: tabular-nums; white-space: nowrap; }

.badge-authorized, .badge-captured, .badge-delivered, .badge-paid, .badge-active, .badge-healthy { color: var(--success); background: var(--success-bg); }
.badge-canceled, .badge-disabled, .badge-voided, .badge-refunded { color: var(--muted); }

a { color: var(--primary); }

.summary-wide dd { text-align: left; }

.paging {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.5rem 1rem;
  color: var(--muted);
  font-size: 0.9375rem;
}

.paging p { margin: 0; }
.paging ul { display: flex; gap: 0.5rem; margin: 0; padding: 0; list-style: none; }

.action-list { display: grid; gap: 0.75rem; margin: 0; }

.action-form {
  display: flex;
  flex-wrap: wrap;
  align-items: flex-end;
  gap: 0.5rem 0.75rem;
  margin: 0;
}

.action-form .field { margin: 0; flex: 1 1 12rem; }
.action-form .hint { margin: 0 0 0.25rem; font-size: 0.8125rem; }

.overview {
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr));
  gap: 0.75rem;
  margin: 0;
  padding: 0;
  list-style: none;
}

.overview a {
  display: grid;
  gap: 0.25rem;
  padding: 0.875rem 1rem;
  border: 1px solid var(--border);
  border-radius: 12px;
  background: var(--surface-muted);
  text-decoration: none;
}

.overview a:hover { border-color: var(--primary); }
.overview .overview-count { color: var(--text); font-size: 1.5rem; font-weight: 700; font-variant-numeric: tabular-nums; }

pre.code {
  margin: 0;
  padding: 0.75rem;
  max-height: 24rem;
  overflow: auto;
  border: 1px solid var(--border);
  border-radius: 8px;
  background: var(--surface-muted);
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  font-size: 0.8125rem;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
}


input[type="password"]:focus-visible { outline-offset: 1px; }

@media (forced-colors: active) {
  .dashboard-nav a { border: 2px solid ButtonText; }
}
`;
