import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuthors, type ReferentialScope } from '../../api/referential';
import { FilterPanel } from '../../components/browse/FilterDrawer';
import { parseToken, token, type FilterGroup, type FilterState } from '../../components/browse/filters';
import type { AUTHOR_ROLES } from './series-filters';

/** Search delay of the author panels. */
const SEARCH_DEBOUNCE_MS = 400;

/**
 * The filter panel of one author role (series and books browse): "any", the picked names first, then what a search
 * of the server's authors finds.
 */
export function AuthorPanel({
  role,
  scope,
  state,
  onChange,
  enabled,
}: {
  role: (typeof AUTHOR_ROLES)[number];
  scope: ReferentialScope;
  state: FilterState;
  onChange: (state: FilterState) => void;
  enabled: boolean;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(search.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);
  const authors = useAuthors({ ...scope, role, search: debounced, size: 20 }, enabled && debounced.length > 0);

  const picked = (state[role] ?? [])
    .map(parseToken)
    .filter((p) => p.value !== undefined)
    .map((p) => p.value!);
  const found = debounced ? (authors.data?.content ?? []).map((a) => a.name).filter((n) => !picked.includes(n)) : [];
  const label = t(`library.filters.roles.${role}`);
  const group: FilterGroup = {
    key: role,
    label,
    anyAll: true,
    values: [
      { label: t('library.filters.any'), include: 'isNotNull', exclude: 'isNull' },
      ...[...picked, ...found].map((name) => ({
        label: name,
        include: token('is', name),
        exclude: token('isNot', name),
      })),
    ],
  };
  return (
    <FilterPanel
      group={group}
      state={state}
      onChange={onChange}
      search={{
        value: search,
        onChange: setSearch,
        placeholder: t('library.filters.searchAuthor', { role: label }),
        pending: search.trim() !== debounced || (authors.isFetching && debounced.length > 0),
      }}
    />
  );
}
