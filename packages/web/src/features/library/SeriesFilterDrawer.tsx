import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { READ_STATUSES } from '../../api/books';
import {
  releaseYears,
  useAgeRatings,
  useGenres,
  useLanguages,
  usePublishers,
  useReleaseDates,
  useSharingLabels,
  useTags,
  type ReferentialScope,
} from '../../api/referential';
import { SERIES_STATUSES } from '../../api/series';
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
import { AUTHOR_ROLES, languageName } from './series-filters';

export interface SeriesFilterDrawerProps {
  open: boolean;
  onClose: () => void;
  scope: ReferentialScope;
  filters: FilterState;
  onFiltersChange: (state: FilterState) => void;
  sort: SortValue;
  sortOptions: SortOption[];
  onSortChange: (key: string) => void;
  modified: boolean;
  onReset: () => void;
}

/** Included and excluded tokens of each value, plus "Any" (not null) whose negation is "none". */
function values(list: readonly string[] | undefined, label: (v: string) => string = (v) => v): FilterValue[] {
  return (list ?? []).map((v) => ({ label: label(v), include: token('is', v), exclude: token('isNot', v) }));
}

/**
 * Every filter and sort of the series browse (ui.md §4.1). The options of each panel come from the referential
 * endpoints, scoped to the library; they load when the drawer first opens.
 */
export function SeriesFilterDrawer(props: SeriesFilterDrawerProps) {
  const { t, i18n } = useTranslation();
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  const scope = props.scope;
  const genres = useGenres(scope, opened);
  const tags = useTags(scope, opened);
  const publishers = usePublishers(scope, opened);
  const languages = useLanguages(scope, opened);
  const ageRatings = useAgeRatings(scope, opened);
  const releaseDates = useReleaseDates(scope, opened);
  const sharingLabels = useSharingLabels(scope, opened);

  const any: FilterValue = { label: t('library.filters.any'), include: 'isNotNull', exclude: 'isNull' };
  const state = props.filters;
  const onChange = props.onFiltersChange;

  const toggles: FilterGroup[] = [
    {
      key: 'readStatus',
      label: t('library.filters.readStatus'),
      values: READ_STATUSES.map((s) => ({
        label: t(`library.filters.readStatuses.${s}`),
        include: token('is', s),
        exclude: token('isNot', s),
      })),
    },
    {
      key: 'complete',
      label: '',
      values: [{ label: t('library.filters.complete'), include: 'isTrue', exclude: 'isFalse' }],
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

  const panels: { group: FilterGroup; loading: boolean }[] = [
    {
      group: {
        key: 'status',
        label: t('library.filters.status'),
        values: SERIES_STATUSES.map((s) => ({
          label: t(`library.filters.statuses.${s}`),
          include: token('is', s),
          exclude: token('isNot', s),
        })),
      },
      loading: false,
    },
    {
      group: { key: 'genre', label: t('library.filters.genre'), anyAll: true, values: [any, ...values(genres.data)] },
      loading: genres.isPending && opened,
    },
    {
      group: { key: 'tag', label: t('library.filters.tag'), anyAll: true, values: [any, ...values(tags.data)] },
      loading: tags.isPending && opened,
    },
    {
      group: { key: 'publisher', label: t('library.filters.publisher'), values: [any, ...values(publishers.data)] },
      loading: publishers.isPending && opened,
    },
    {
      group: {
        key: 'language',
        label: t('library.filters.language'),
        values: [any, ...values(languages.data, (l) => languageName(l, i18n.language))],
      },
      loading: languages.isPending && opened,
    },
    {
      group: {
        key: 'ageRating',
        label: t('library.filters.ageRating'),
        values: [
          any,
          ...values(
            [...(ageRatings.data ?? [])].sort((a, b) => Number(a) - Number(b)),
            (a) => t('library.filters.age', { age: a }),
          ),
        ],
      },
      loading: ageRatings.isPending && opened,
    },
    {
      group: {
        key: 'releaseYear',
        label: t('library.filters.releaseYear'),
        values: [any, ...values(releaseYears(releaseDates.data ?? []))],
      },
      loading: releaseDates.isPending && opened,
    },
  ];

  return (
    <FilterDrawer open={props.open} onClose={props.onClose} modified={props.modified} onReset={props.onReset}>
      <FilterToggleList groups={toggles} state={state} onChange={onChange} />
      <FilterSubheader>{t('library.filters.filter')}</FilterSubheader>
      {panels.map(({ group, loading }) => (
        <FilterPanel key={group.key} group={group} state={state} onChange={onChange} loading={loading} />
      ))}
      {AUTHOR_ROLES.map((role) => (
        <AuthorPanel key={role} role={role} scope={scope} state={state} onChange={onChange} enabled={opened} />
      ))}
      <FilterPanel
        group={{
          key: 'sharingLabel',
          label: t('library.filters.sharingLabel'),
          values: [any, ...values(sharingLabels.data)],
        }}
        state={state}
        onChange={onChange}
        loading={sharingLabels.isPending && opened}
      />
      <FilterSubheader>{t('library.filters.sort')}</FilterSubheader>
      <SortList options={props.sortOptions} value={props.sort} onChange={props.onSortChange} />
    </FilterDrawer>
  );
}
