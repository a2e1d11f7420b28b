import { useTranslation } from 'react-i18next';
import type { MediaProfile } from '@quire/api';
import { READ_STATUSES } from '../../../api/books';
import {
  FilterDrawer,
  FilterPanel,
  FilterSubheader,
  FilterToggleList,
  SortList,
} from '../../../components/browse/FilterDrawer';
import {
  token,
  type FilterGroup,
  type FilterState,
  type FilterValue,
  type SortOption,
  type SortValue,
} from '../../../components/browse/filters';
import { BOOK_SORT_KEYS } from '../bookFilters';
import { AUTHOR_ROLES, authorsByRole } from './format';

const PROFILES: MediaProfile[] = ['DIVINA', 'PDF', 'EPUB'];

export interface BooksFilterDrawerProps {
  open: boolean;
  onClose: () => void;
  filters: FilterState;
  onFiltersChange: (state: FilterState) => void;
  sort: SortValue;
  onSortChange: (key: string) => void;
  modified: boolean;
  onReset: () => void;
  /** Tags of the series' books. */
  tags: readonly string[];
  /** Authors of the series' books. */
  authors: readonly { name: string; role: string }[];
}

const values = (list: readonly string[], label: (v: string) => string = (v) => v): FilterValue[] =>
  list.map((v) => ({ label: label(v), include: token('is', v), exclude: token('isNot', v) }));

export function bookSortOptions(t: (key: string) => string): SortOption[] {
  return BOOK_SORT_KEYS.map((key) => ({ key, label: t(`items.sort.${key.replace(/\./g, '_')}`) }));
}

/**
 * The series page's filter and sort drawer (ui.md §5): read status and unavailable as toggles; format, tags (any or
 * all of) and the authors of each role present in the series as panels; then the sort.
 */
export function BooksFilterDrawer(props: BooksFilterDrawerProps) {
  const { t } = useTranslation();
  const state = props.filters;
  const onChange = props.onFiltersChange;
  const any: FilterValue = { label: t('items.filter.any'), include: 'isNotNull', exclude: 'isNull' };

  const toggles: FilterGroup[] = [
    {
      key: 'readStatus',
      label: t('items.filter.readStatus'),
      values: values(READ_STATUSES, (s) => t(`items.readStatus.${s}`)),
    },
    {
      key: 'deleted',
      label: '',
      values: [{ label: t('items.filter.unavailable'), include: 'isTrue', exclude: 'isFalse' }],
    },
  ];
  const byRole = new Map(authorsByRole(props.authors));

  return (
    <FilterDrawer open={props.open} onClose={props.onClose} modified={props.modified} onReset={props.onReset}>
      <FilterToggleList groups={toggles} state={state} onChange={onChange} />
      <FilterSubheader>{t('items.filter.filters')}</FilterSubheader>
      <FilterPanel
        group={{
          key: 'mediaProfile',
          label: t('items.filter.format'),
          values: values(PROFILES, (p) => t(`items.mediaProfile.${p}`)),
        }}
        state={state}
        onChange={onChange}
      />
      {(props.tags.length > 0 || (state.tag?.length ?? 0) > 0) && (
        <FilterPanel
          group={{ key: 'tag', label: t('items.fields.tags'), anyAll: true, values: [any, ...values(props.tags)] }}
          state={state}
          onChange={onChange}
        />
      )}
      {/* Only the roles the series' books have: a panel per absent role would only ever say "none". */}
      {AUTHOR_ROLES.filter((role) => byRole.has(role) || (state[role]?.length ?? 0) > 0).map((role) => (
        <FilterPanel
          key={role}
          group={{
            key: role,
            label: t(`items.roles.${role}`),
            anyAll: true,
            values: [any, ...values(byRole.get(role) ?? [])],
          }}
          state={state}
          onChange={onChange}
        />
      ))}
      <FilterSubheader>{t('items.filter.sort')}</FilterSubheader>
      <SortList options={bookSortOptions(t)} value={props.sort} onChange={props.onSortChange} />
    </FilterDrawer>
  );
}
