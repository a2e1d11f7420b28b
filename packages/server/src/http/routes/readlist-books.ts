import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { BookDto, MemberListParams, PageBookDto, ReadListBookParams, ReadListBooksQuery } from '@quire/api';
import { listContext } from '../../db/queries/conditions.js';
import { notFound } from '../../domain/errors.js';
import { isAdmin } from '../../domain/user.js';
import type { AppDeps } from '../deps.js';
import { bookFilterCondition, bookPage, pageRequest } from '../listing.js';
import { toBookDto } from '../mappers/books.js';

/**
 * The books of a read list and a book's neighbours in it (api.md §3.5): list order when the read list is ordered,
 * else release date. Hidden books are skipped; a read list the caller cannot see is a 404.
 */
export const readListBookRoutes: FastifyPluginAsync<AppDeps> = async (instance, deps) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { browse, books } = deps;

  app.get(
    '/api/v1/readlists/:id/books',
    {
      schema: { params: MemberListParams, querystring: ReadListBooksQuery, response: { 200: PageBookDto } },
      onRequest: app.authenticate,
    },
    async (req) => {
      const ctx = listContext(req.user!);
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
  );

  for (const [path, next] of [
    ['/api/v1/readlists/:id/books/:bookId/next', true],
    ['/api/v1/readlists/:id/books/:bookId/previous', false],
  ] as const) {
    app.get(
      path,
      { schema: { params: ReadListBookParams, response: { 200: BookDto } }, onRequest: app.authenticate },
      async (req) => {
        const ctx = listContext(req.user!);
        if (!(await browse.books.canOpen(ctx, 'readlist', req.params.id))) throw notFound();
        const id = await browse.books.siblingInReadList(ctx, req.params.id, req.params.bookId, next);
        const view = id ? await books.queries.findById(id, req.user!.id) : undefined;
        if (!view) throw notFound();
        return toBookDto(view, isAdmin(req.user!));
      },
    );
  }
};
