import type { SandboxMerchant } from '../partners/sandbox-merchant.js';

/**
 * What a dashboard section is made of: a resource declared as data (its list, its record, the
 * columns and rows it shows, the records related to it and the actions on it). The dashboard
 * renders and escapes every value, so a section never writes HTML.
 */

/**
 * A value a section shows, as data: the dashboard renders and escapes it, so a section never
 * writes HTML. A string is plain text; `null`, `undefined` and `''` show as a dash.
 */
export type Cell =
  | string
  | number
  | boolean
  | null
  | undefined
  | { kind: 'mono'; text: string }
  | { kind: 'amount'; satang: number; currency: string }
  | { kind: 'status'; status: string }
  | { kind: 'time'; iso: string | null | undefined }
  | { kind: 'code'; text: string }
  /** An address outside the dashboard: a link when it is http(s), text otherwise. */
  | { kind: 'url'; href: string }
  /** A link to a record: of `section`, or of the section whose `idPrefix` the id starts with. */
  | { kind: 'ref'; id: string | null | undefined; section?: string };

/** Cell builders, so section entries read as data. */
export const cell = {
  mono: (text: string | null | undefined): Cell => (text ? { kind: 'mono', text } : null),
  amount: (satang: number | null | undefined, currency: string): Cell => (typeof satang === 'number' ? { kind: 'amount', satang, currency } : null),
  status: (status: string | null | undefined): Cell => (status ? { kind: 'status', status } : null),
  time: (iso: string | null | undefined): Cell => ({ kind: 'time', iso }),
  code: (text: string): Cell => ({ kind: 'code', text }),
  url: (href: string | null | undefined): Cell => (href ? { kind: 'url', href } : null),
  ref: (id: string | null | undefined, section?: string): Cell => (section === undefined ? { kind: 'ref', id } : { kind: 'ref', id, section }),
};

/** A labelled value of a record: a list column or a detail row. */
export interface Column<R> {
  label: string;
  value(record: R): Cell;
}

/** A text field of an action form; every field is optional for the person filling it. */
export interface ActionInput {
  name: string;
  label: string;
  hint?: string;
  inputMode?: 'decimal' | 'text';
}

/** Where an action sends the browser next: another record, instead of the one acted on. */
export interface ActionTarget {
  section: string;
  id: string;
}

/**
 * Something a person can do to a record: a POST form on its page, shown only while `available`.
 * `run` throws a `SandboxError` to refuse, and its message is shown on the record's page.
 */
export interface SectionAction<R> {
  /** Path segment of the form's action, e.g. `refund`. */
  name: string;
  /** The button's text. */
  label: string;
  variant: 'primary' | 'success' | 'danger';
  /** The notice shown after it succeeded. */
  done: string;
  available(record: R): boolean;
  inputs?(record: R): ActionInput[];
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- most actions are statements that return nothing
  run(record: R, form: URLSearchParams, merchant: SandboxMerchant): ActionTarget | void;
}

/** Records shown in a table on another record's page. */
export type RelatedTable =
  | { title: string; section: string; records: readonly unknown[]; empty?: string }
  | { title: string; columns: readonly Column<never>[]; records: readonly unknown[]; empty?: string };

/**
 * One resource of the dashboard, declared as data: how to list and find its records (always as
 * seen by one merchant), the columns of its list, the rows of its detail page, related tables and
 * actions. Adding a resource to the dashboard is adding one of these to the list the sandbox gives
 * `SandboxDashboard`.
 */
export interface DashboardSection<R> {
  /** Path segment, e.g. `charges`. */
  slug: string;
  /** Plural title, e.g. "Charges". */
  title: string;
  /** What one record is called, e.g. "Charge". */
  singular: string;
  /** Ids that start with it link to this section (`ch_`). */
  idPrefix?: string;
  /** Shown above the list, e.g. why it may be empty. */
  hint?: string;
  id(record: R): string;
  /** A page of the merchant's records, newest first. */
  list(merchant: SandboxMerchant, page: { limit: number; offset: number }): { data: readonly R[]; totalCount: number };
  /** One record of the merchant; throws NOT_FOUND_ERROR when there is none. */
  get(merchant: SandboxMerchant, id: string): R;
  columns: readonly Column<R>[];
  fields: readonly Column<R>[];
  related?(record: R, merchant: SandboxMerchant): RelatedTable[];
  actions?: readonly SectionAction<R>[];
}

/** Erases a section's record type so sections of different resources fit in one list. */
export function defineSection<R>(section: DashboardSection<R>): DashboardSection<unknown> {
  return section;
}

/** A table of related records with columns of its own (e.g. the attempts of a webhook delivery). */
export function relatedTable<T>(title: string, columns: readonly Column<T>[], records: readonly T[], empty?: string): RelatedTable {
  return { title, columns, records, ...(empty === undefined ? {} : { empty }) };
}
