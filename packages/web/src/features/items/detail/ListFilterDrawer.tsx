import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { READ_STATUSES } from '../../../api/books';
import { useLibraries } from '../../../api/libraries';
import {
  releaseYears,
  useAgeRatings,
  useAuthors,
  useBookTags,
  useGenres,
  useLanguages,
  usePublishers,
  useReleaseDates,
  useTags,
} from '../../../api/referential';
import { SERIES_STATUSES } from '../../../api/series';
import { FilterDrawer, FilterPanel, FilterSubheader, FilterToggleList } from '../../../components/browse/FilterDrawer';
import {
  parseToken,
  token,
  type FilterGroup,
  type FilterState,
  type FilterValue,
} from '../../../components/browse/filters';
import { AUTHOR_ROLES, languageName } from './format';

export interface ListFilterDrawerProps {
  /** Whose members are filtered: a collection's series or a read list's books. */
  list: { kind: 'collection' | 'readList'; id: string };
  open: boolean;
  onClose: () => void;
  filters: FilterState;
  onChange: (state: FilterState) => void;
  onReset: () => void;
}

/** Include-only values: these lists' filters cannot exclude (ui.md §8). */
const values = (list: readonly string[] | undefined, label: (v: string) => string = (v) => v): FilterValue[] =>
  (list ?? []).map((v) => ({ label: label(v), include: token('is', v) }));

/**
 * The filter drawer of a collection or read list page. No sort: the list's own order applies (manual, or by name /
 * release date). Options load when the drawer first opens, limited to the list's members.
 */
export function ListFilterDrawer({ list, open, onClose, filters, onChange, onReset }: ListFilterDrawerProps) {
  const { t, i18n } = useTranslation();
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  const collection = list.kind === 'collection';
  const scope = { collectionId: list.id };
  const libraries = useLibraries().data ?? [];
  const genres = useGenres(scope, opened && collection);
  const seriesTags = useTags(scope, opened && collection);
  const bookTags = useBookTags({ readListId: list.id }, opened && !collection);
  const publishers = usePublishers(scope, opened && collection);
  const languages = useLanguages(scope, opened && collection);
  const ageRatings = useAgeRatings(scope, opened && collection);
  const releaseDates = useReleaseDates(scope, opened && collection);

  const toggles: FilterGroup[] = [
    {
      key: 'readStatus',
      label: t('items.filter.readStatus'),
      values: values(READ_STATUSES, (s) => t(`items.readStatus.${s}`)),
    },
  ];
  if (collection)
    toggles.push({
      key: 'complete',
      label: '',
      values: [{ label: t('items.filter.complete'), include: 'isTrue', exclude: 'isFalse' }],
    });

  const panels: { group: FilterGroup; loading?: boolean }[] = [];
  if (libraries.length > 1)
    panels.push({
      group: {
        key: 'library',
        label: t('items.filter.library'),
        values: libraries.map((l) => ({ label: l.name, include: token('is', l.id) })),
      },
    });
  if (collection) {
    panels.push(
      {
        group: {
          key: 'status',
          label: t('items.filter.status'),
          values: values(SERIES_STATUSES, (s) => t(`items.seriesStatus.${s}`)),
        },
      },
      {
        group: { key: 'genre', label: t('items.fields.genres'), values: values(genres.data) },
        loading: genres.isPending && opened,
      },
      {
        group: { key: 'tag', label: t('items.fields.tags'), values: values(seriesTags.data) },
        loading: seriesTags.isPending && opened,
      },
      {
        group: { key: 'publisher', label: t('items.fields.publisher'), values: values(publishers.data) },
        loading: publishers.isPending && opened,
      },
      {
        group: {
          key: 'language',
          label: t('items.fields.language'),
          values: values(languages.data, (l) => languageName(l, i18n.language)),
        },
        loading: languages.isPending && opened,
      },
      {
        group: {
          key: 'ageRating',
          label: t('items.filter.ageRating'),
          values: values(
            [...(ageRatings.data ?? [])].sort((a, b) => Number(a) - Number(b)),
            (a) => t('items.series.ageRating', { age: a }),
          ),
        },
        loading: ageRatings.isPending && opened,
      },
      {
        group: {
          key: 'releaseYear',
          label: t('items.filter.releaseYear'),
          values: values(releaseYears(releaseDates.data ?? [])),
        },
        loading: releaseDates.isPending && opened,
      },
    );
  } else {
    panels.push({
      group: { key: 'tag', label: t('items.fields.tags'), values: values(bookTags.data) },
      loading: bookTags.isPending && opened,
    });
  }

  return (
    <FilterDrawer open={open} onClose={onClose} modified={Object.keys(filters).length > 0} onReset={onReset}>
      <FilterToggleList groups={toggles} state={filters} onChange={onChange} />
      <FilterSubheader>{t('items.filter.filters')}</FilterSubheader>
      {panels.map(({ group, loading }) => (
        <FilterPanel key={group.key} group={group} state={filters} onChange={onChange} loading={loading} />
      ))}
      {AUTHOR_ROLES.map((role) => (
        <AuthorPanel key={role} role={role} list={list} state={filters} onChange={onChange} enabled={opened} />
      ))}
    </FilterDrawer>
  );
}

const SEARCH_DEBOUNCE_MS = 400;

/** Authors of one role among the list's members: the picked names, then what the search finds. */
function AuthorPanel({
  role,
  list,
  state,
  onChange,
  enabled,
}: {
  role: string;
  list: ListFilterDrawerProps['list'];
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
  const authors = useAuthors(
    {
      role,
      search: debounced,
      size: 20,
      ...(list.kind === 'collection' ? { collectionId: list.id } : { readListId: list.id }),
    },
    enabled && debounced.length > 0,
  );
  const picked = (state[role] ?? []).map(parseToken).flatMap((p) => (p.value !== undefined ? [p.value] : []));
  const found = debounced ? (authors.data?.content ?? []).map((a) => a.name).filter((n) => !picked.includes(n)) : [];
  const label = t(`items.roles.${role}`);
  return (
    <FilterPanel
      group={{ key: role, label, values: values([...picked, ...found]) }}
      state={state}
      onChange={onChange}
      search={{
        value: search,
        onChange: setSearch,
        placeholder: t('items.filter.searchAuthor', { role: label }),
        pending: authors.isFetching,
      }}
    />
  );
}
