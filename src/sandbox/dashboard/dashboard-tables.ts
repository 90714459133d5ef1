import type { DisplayCell, TableView } from './dashboard-pages.js';
import type { Cell, Column, DashboardSection, RelatedTable } from './dashboard-section.js';

/**
 * Turns what sections declare into what pages show: a related table into rows of display cells,
 * a cell into text, a link or a dash, and a record id into the address of its page.
 */
export class DashboardTables {
  readonly #sections: readonly DashboardSection<unknown>[];
  readonly #path: string;

  constructor(sections: readonly DashboardSection<unknown>[], path: string) {
    this.#sections = sections;
    this.#path = path;
  }

  sectionHref(slug: string): string {
    return `${this.#path}/${encodeURIComponent(slug)}`;
  }

  recordHref(slug: string, id: string): string {
    return `${this.sectionHref(slug)}/${encodeURIComponent(id)}`;
  }

  /** A table of records: a section's own columns, linked to each record, or columns of its own. */
  table(related: RelatedTable): TableView {
    const owner = 'section' in related ? this.#sections.find((section) => section.slug === related.section) : undefined;
    const columns: readonly Column<unknown>[] = owner ? owner.columns : 'columns' in related ? related.columns : [];
    return {
      caption: related.title,
      columns: columns.map((column) => column.label),
      rows: related.records.map((record) => ({
        cells: columns.map((column) => this.display(column.value(record))),
        href: owner ? this.recordHref(owner.slug, owner.id(record)) : undefined,
      })),
      empty: related.empty ?? 'None.',
    };
  }

  /** Resolves a section's cell for display: links to records become hrefs, empty values a dash. */
  display(value: Cell): DisplayCell {
    if (value === null || value === undefined || value === '') return { kind: 'none' };
    if (typeof value === 'string') return { kind: 'text', text: value };
    if (typeof value === 'number') return { kind: 'text', text: String(value) };
    if (typeof value === 'boolean') return { kind: 'text', text: value ? 'Yes' : 'No' };
    switch (value.kind) {
      case 'time':
        return value.iso ? { kind: 'time', iso: value.iso } : { kind: 'none' };
      case 'ref': {
        if (!value.id) return { kind: 'none' };
        const id = value.id;
        const slug = value.section ?? this.#sections.find((section) => section.idPrefix !== undefined && id.startsWith(section.idPrefix))?.slug;
        return slug === undefined ? { kind: 'mono', text: id } : { kind: 'link', href: this.recordHref(slug, id), text: id };
      }
      default:
        return value;
    }
  }
}
