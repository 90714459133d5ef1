import { LIST_MAX_LIMIT } from '../../core/constants.js';
import type { ListQuery } from '../../core/schemas/common.js';

/** Page size of `iterate`: the largest page the service serves, so the fewest round trips. */
export const ITERATE_PAGE_SIZE = LIST_MAX_LIMIT;

/** `limit` and `offset` of a list call, as the service reads them. */
export function pageQuery(query: ListQuery | undefined): URLSearchParams {
  const params = new URLSearchParams();
  if (query?.limit !== undefined) params.set('limit', String(query.limit));
  if (query?.offset !== undefined) params.set('offset', String(query.offset));
  return params;
}

/**
 * Every item of a list endpoint, page by page with limit/offset as the loop asks for them, until
 * the total is reached; what `iterate` of each resource does.
 */
export async function* listPages<T>(
  list: (page: { limit: number; offset: number }) => Promise<{ data: T[]; totalCount: number }>,
  query: ListQuery | undefined,
  identify: (item: T) => string,
): AsyncGenerator<T, void, undefined> {
  const limit = query?.limit ?? ITERATE_PAGE_SIZE;
  let offset = query?.offset ?? 0;
  // Newest-first offset paging shifts older items back when new ones arrive between pages;
  // remembering what was yielded keeps each item to one appearance.
  const seen = new Set<string>();
  for (;;) {
    const page = await list({ limit, offset });
    for (const item of page.data) {
      const id = identify(item);
      if (seen.has(id)) continue;
      seen.add(id);
      yield item;
    }
    // Advance by what came, not by what was asked: a service may serve shorter pages.
    offset += page.data.length;
    if (page.data.length === 0 || offset >= page.totalCount) return;
  }
}
