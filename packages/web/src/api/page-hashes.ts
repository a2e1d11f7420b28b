import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PageHashAction } from '@quire/api/constants';
import type { PageHashMatchDto } from '@quire/api';
import { client, operationUrl } from './client';
import type { PageParams } from './books';

export type { PageHashKnownDto, PageHashMatchDto, PageHashUnknownDto } from '@quire/api';

/** Duplicate pages (api.md §3.10): known and unknown page hashes, their matches, decisions and removals. */
export const pageHashKeys = {
  all: ['page-hashes'] as const,
  known: (params: PageParams & { action: readonly PageHashAction[] }) => ['page-hashes', 'known', params] as const,
  unknown: (params: PageParams) => ['page-hashes', 'unknown', params] as const,
  matches: (hash: string, params: PageParams) => ['page-hashes', 'matches', hash, params] as const,
};

const paging = (p: PageParams) => ({ page: p.page, size: p.size, sort: p.sort ? [...p.sort] : undefined });

export const useKnownPageHashes = (params: PageParams & { action: readonly PageHashAction[] }) =>
  useQuery({
    queryKey: pageHashKeys.known(params),
    queryFn: () => client.get('/api/v1/page-hashes', { query: { ...paging(params), action: [...params.action] } }),
    placeholderData: keepPreviousData,
  });

export const useUnknownPageHashes = (params: PageParams) =>
  useQuery({
    queryKey: pageHashKeys.unknown(params),
    queryFn: () => client.get('/api/v1/page-hashes/unknown', { query: paging(params) }),
    placeholderData: keepPreviousData,
  });

export const usePageHashMatches = (hash: string, params: PageParams) =>
  useQuery({
    queryKey: pageHashKeys.matches(hash, params),
    queryFn: () => client.get('/api/v1/page-hashes/{pageHash}', { params: { pageHash: hash }, query: paging(params) }),
    placeholderData: keepPreviousData,
  });

export const knownThumbnailUrl = (hash: string) =>
  operationUrl('/api/v1/page-hashes/{pageHash}/thumbnail', { params: { pageHash: hash } });
export const unknownThumbnailUrl = (hash: string, resize: number) =>
  operationUrl('/api/v1/page-hashes/unknown/{pageHash}/thumbnail', { params: { pageHash: hash }, query: { resize } });

/** Decides what to do with one or several hashes (`PUT /page-hashes` each); the lists reload once all are done. */
export function useDecidePageHashes() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (decisions: readonly { hash: string; size?: number; action: PageHashAction }[]) => {
      for (const d of decisions) {
        await client.put('/api/v1/page-hashes', {
          body: { hash: d.hash, action: d.action, ...(d.size === undefined ? {} : { size: d.size }) },
        });
      }
    },
    onSettled: () => qc.invalidateQueries({ queryKey: pageHashKeys.all }),
  });
}

/** Queues the removal of every page holding a hash; the pages go as the tasks run. */
export function useDeleteAllMatches() {
  return useMutation({
    mutationFn: (hash: string) =>
      client.post('/api/v1/page-hashes/{pageHash}/delete-all', { params: { pageHash: hash } }),
  });
}

/** Queues the removal of one page holding a hash. */
export function useDeleteMatch() {
  return useMutation({
    mutationFn: ({ hash, match }: { hash: string; match: PageHashMatchDto }) =>
      client.post('/api/v1/page-hashes/{pageHash}/delete-match', { params: { pageHash: hash }, body: match }),
  });
}
