import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { READ_STATUSES } from '../../api/books';
import { useBookTags } from '../../api/referential';
import {
  FilterDrawer,
  FilterPanel,
  FilterSubheader,
  FilterToggleList,
  SortList,
} from '../../components/browse/FilterDrawer';
import {
  token,
  type FilterGroup,
  type FilterState,
  type FilterValue,
  type SortOption,
  type SortValue,
} from '../../components/browse/filters';
import { AuthorPanel } from './AuthorPanel';
import { MEDIA_PROFILES, MEDIA_STATUSES } from './book-filters';
import { AUTHOR_ROLES } from './series-filters';

export interface LibraryBooksFilterDrawerProps {
  open: boolean;
  onClose: () => void;
  /** The library's id; none for all libraries. */
  libraryIds: readonly string[] | undefined;
  filters: FilterState;
  onFiltersChange: (state: FilterState) => void;
  sort: SortValue;
  sortOptions: SortOption[];
  onSortChange: (key: string) => void;
  modified: boolean;
  onReset: () => void;
}

const values = (list: readonly string[], label: (v: string) => string = (v) => v): FilterValue[] =>
  list.map((v) => ({ label: label(v), include: token('is', v), exclude: token('isNot', v) }));

/**
 * Every filter and sort of a library's Books tab (ui.md §4.2): read status, one-shot and unavailable as toggles; tags
 * (the library's book tags, loaded when the drawer first opens), format, media status and the eight author roles as
 * panels; then the sort.
 */
export function LibraryBooksFilterDrawer(props: LibraryBooksFilterDrawerProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  const tags = useBookTags({ libraryIds: props.libraryIds }, opened);
  const state = props.filters;
  const onChange = props.onFiltersChange;
  const any: FilterValue = { label: t('library.filters.any'), include: 'isNotNull', exclude: 'isNull' };

  const toggles: FilterGroup[] = [
    {
      key: 'readStatus',
      label: t('library.filters.readStatus'),
      values: values(READ_STATUSES, (s) => t(`library.filters.readStatuses.${s}`)),
    },
    {
      key: 'oneShot',
      label: '',
      values: [{ label: t('library.filters.oneShot'), include: 'isTrue', exclude: 'isFalse' }],
    },
    {
      key: 'deleted',
      label: '',
      values: [{ label: t('library.filters.unavailable'), include: 'isTrue', exclude: 'isFalse' }],
    },
  ];

  return (
    <FilterDrawer open={props.open} onClose={props.onClose} modified={props.modified} onReset={props.onReset}>
      <FilterToggleList groups={toggles} state={state} onChange={onChange} />
      <FilterSubheader>{t('library.filters.filter')}</FilterSubheader>
      <FilterPanel
        group={{ key: 'tag', label: t('library.filters.tag'), anyAll: true, values: [any, ...values(tags.data ?? [])] }}
        state={state}
        onChange={onChange}
        loading={tags.isPending && opened}
      />
      <FilterPanel
        group={{
          key: 'mediaProfile',
          label: t('library.filters.mediaProfile'),
          values: values(MEDIA_PROFILES, (p) => t(`library.filters.mediaProfiles.${p}`)),
        }}
        state={state}
        onChange={onChange}
      />
      <FilterPanel
        group={{
          key: 'mediaStatus',
          label: t('library.filters.mediaStatus'),
          values: values(MEDIA_STATUSES, (s) => t(`library.filters.mediaStatuses.${s}`)),
        }}
        state={state}
        onChange={onChange}
      />
      {AUTHOR_ROLES.map((role) => (
        <AuthorPanel
          key={role}
          role={role}
          scope={{ libraryIds: props.libraryIds }}
          state={state}
          onChange={onChange}
          enabled={opened}
        />
      ))}
      <FilterSubheader>{t('library.filters.sort')}</FilterSubheader>
      <SortList options={props.sortOptions} value={props.sort} onChange={props.onSortChange} />
    </FilterDrawer>
  );
}
