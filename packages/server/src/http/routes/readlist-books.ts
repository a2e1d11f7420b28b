import type { ReadListBookParams } from '@quire/api';
import type { readListBookOperations } from '@quire/api/operations';
import type { BookQueries } from '../../db/queries/books.js';
import type { Browse } from '../../db/queries/browse.js';
import { listContext } from '../../db/queries/conditions.js';
import { notFound } from '../../domain/errors.js';
import { isAdmin, type CurrentUser } from '../../domain/user.js';
import type { Handlers, OperationIdsOf } from '../operations.js';
import { bookFilterCondition, bookPage, pageRequest } from '../listing.js';
import { toBookDto } from '../mappers/books.js';

export interface ReadListBookRouteDeps {
  browse: Pick<Browse, 'books'>;
  books: { queries: Pick<BookQueries, 'findMany' | 'findById'> };
}

/**
 * The books of a read list and a book's neighbours in it (api.md §3.5): list order when the read list is ordered,
 * else release date. Hidden books are skipped; a read list the caller cannot see is a 404.
 */
export function readListBookHandlers(
  deps: ReadListBookRouteDeps,
): Handlers<OperationIdsOf<typeof readListBookOperations>> {
  const { browse, books } = deps;
  const sibling = (next: boolean) => async (req: { user: CurrentUser; params: ReadListBookParams }) => {
    const ctx = listContext(req.user);
    if (!(await browse.books.canOpen(ctx, 'readlist', req.params.id))) throw notFound();
    const id = await browse.books.siblingInReadList(ctx, req.params.id, req.params.bookId, next);
    const view = id ? await books.queries.findById(id, req.user.id) : undefined;
    if (!view) throw notFound();
    return toBookDto(view, isAdmin(req.user));
  };
  return {
    getBooksByReadListId: async (req) => {
      const ctx = listContext(req.user);
      const readList = await browse.books.canOpen(ctx, 'readlist', req.params.id);
      if (!readList) throw notFound();
      const page = pageRequest(req.query);
      const found = await browse.books.list(
        { ctx, condition: bookFilterCondition(req.query, [{ readListId: { operator: 'is', value: req.params.id } }]) },
        [{ property: readList.ordered ? 'readList.number' : 'metadata.releaseDate', descending: false }],
        page.slice,
      );
      return bookPage(deps, req, found, page);
    },
    getBookSiblingNextInReadList: sibling(true),
    getBookSiblingPreviousInReadList: sibling(false),
  };
}
