/** Where the next page starts: a cursor list's `next_cursor`, or the next `page` of a numbered list. */
export interface NextPage {
  cursor?: string;
  page?: number;
}

type Page = Record<string, unknown> & {
  data?: unknown[];
  next_cursor?: string | null;
  page?: number;
  limit?: number;
  total?: number;
};

/**
 * Every item of a list, page by page: `fetchPage` calls the list operation with the given position
 * (`query: { ...filters, ...next }`). Cursor lists (`next_cursor`) and numbered ones (`page`, `limit`, `total`) both
 * work; the items are `data`, or the envelope's one array where the spec names it otherwise (`contacts`, …).
 */
export async function* listAll<T = unknown>(
  fetchPage: (next: NextPage) => Promise<{ data?: unknown; error?: unknown; response?: Response }>,
): AsyncGenerator<T> {
  let next: NextPage = {};
  for (;;) {
    const { data, error, response } = await fetchPage(next);
    if (!data) throw new Error(`the list answered ${response?.status}: ${JSON.stringify(error)}`);
    const page = data as Page;
    const items = (page.data ?? Object.values(page).find(Array.isArray) ?? []) as T[];
    yield* items;
    if (page.next_cursor) next = { cursor: page.next_cursor };
    else if (
      typeof page.page === 'number' &&
      typeof page.limit === 'number' &&
      typeof page.total === 'number' &&
      page.page * page.limit < page.total
    )
      next = { page: page.page + 1 };
    else return;
  }
}
