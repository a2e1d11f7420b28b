/**
 * Filter state of browse screens, as it sits in the URL and in the remembered preferences: each filter key holds a
 * list of tokens, repeated in the query string (`?genre=is:Action&genre=isNot:Horror&readStatus=is:UNREAD`).
 * A token is an operator, optionally followed by `:` and a value (`is:Action`, `isNotNull`, `isTrue`). The key
 * `allOf` lists the groups combined with AND instead of OR. Turning tokens into search conditions is the screen's
 * business (features/library/series-filters.ts); this module only reads, writes and cycles them.
 */

export type FilterState = Record<string, string[]>;

/** The key listing the groups in "all of" mode. */
export const MODE_KEY = 'allOf';

export type TriState = 'off' | 'include' | 'exclude';

export interface Token {
  operator: string;
  value?: string;
}

export function parseToken(token: string): Token {
  const i = token.indexOf(':');
  return i < 0 ? { operator: token } : { operator: token.slice(0, i), value: token.slice(i + 1) };
}

export const token = (operator: string, value?: string) => (value === undefined ? operator : `${operator}:${value}`);

/** One choice of a filter group: the token it adds when included and, if it can be negated, when excluded. */
export interface FilterValue {
  label: string;
  include: string;
  exclude?: string;
}

export interface FilterGroup {
  key: string;
  label: string;
  values: FilterValue[];
  /** Offers the any-of / all-of switch. */
  anyAll?: boolean;
}

export function valueState(state: FilterState, key: string, value: FilterValue): TriState {
  const tokens = state[key] ?? [];
  if (tokens.includes(value.include)) return 'include';
  if (value.exclude && tokens.includes(value.exclude)) return 'exclude';
  return 'off';
}

/**
 * The next state of a value: off → include → exclude (when it can be negated) → off. Excluding puts a group with
 * the any/all switch into "all of", since "X or not Y" is rarely what anyone means.
 */
export function cycleValue(state: FilterState, group: FilterGroup, value: FilterValue): FilterState {
  const current = valueState(state, group.key, value);
  const tokens = (state[group.key] ?? []).filter((t) => t !== value.include && t !== value.exclude);
  let modes = state[MODE_KEY] ?? [];
  if (current === 'off') tokens.push(value.include);
  else if (current === 'include' && value.exclude) {
    tokens.push(value.exclude);
    if (group.anyAll && !modes.includes(group.key)) modes = [...modes, group.key];
  }
  return withGroup({ ...state, [MODE_KEY]: modes }, group.key, tokens);
}

/** Only one of the values at a time (a boolean filter): replaces whatever the group held. */
export function setSingle(state: FilterState, key: string, tokenOrNull: string | null): FilterState {
  return withGroup(state, key, tokenOrNull ? [tokenOrNull] : []);
}

export function clearGroup(state: FilterState, key: string): FilterState {
  return withGroup({ ...state, [MODE_KEY]: (state[MODE_KEY] ?? []).filter((k) => k !== key) }, key, []);
}

export const isAllOf = (state: FilterState, key: string) => (state[MODE_KEY] ?? []).includes(key);

export function setAllOf(state: FilterState, key: string, allOf: boolean): FilterState {
  const modes = (state[MODE_KEY] ?? []).filter((k) => k !== key);
  return withGroup(state, MODE_KEY, allOf ? [...modes, key] : modes);
}

function withGroup(state: FilterState, key: string, tokens: string[]): FilterState {
  const next = { ...state };
  if (tokens.length) next[key] = tokens;
  else delete next[key];
  return next;
}

/** How many tokens are set, modes aside (the filter button's badge). */
export const activeCount = (state: FilterState) =>
  Object.entries(state).reduce((n, [k, v]) => (k === MODE_KEY ? n : n + v.length), 0);

/** The filters of `keys` present in a query string. */
export function readFilters(params: URLSearchParams, keys: readonly string[]): FilterState {
  const state: FilterState = {};
  for (const key of [...keys, MODE_KEY]) {
    const values = params.getAll(key).filter(Boolean);
    if (values.length) state[key] = [...new Set(values)];
  }
  return state;
}

/** Whether the query string carries any filter of `keys`. */
export const hasFilters = (params: URLSearchParams, keys: readonly string[]) =>
  [...keys, MODE_KEY].some((k) => params.has(k));

/** A copy of `params` with the filters of `keys` replaced by `state`. */
export function writeFilters(params: URLSearchParams, keys: readonly string[], state: FilterState): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of [...keys, MODE_KEY]) next.delete(key);
  for (const key of [...keys, MODE_KEY]) for (const value of state[key] ?? []) next.append(key, value);
  return next;
}

/** Keeps only known keys whose values are strings (a remembered state may be stale or edited by hand). */
export function sanitize(stored: unknown, keys: readonly string[]): FilterState {
  if (!stored || typeof stored !== 'object') return {};
  const state: FilterState = {};
  for (const key of [...keys, MODE_KEY]) {
    const values = (stored as Record<string, unknown>)[key];
    if (Array.isArray(values)) {
      const strings = values.filter((v): v is string => typeof v === 'string' && v.length > 0);
      if (strings.length) state[key] = strings;
    }
  }
  return state;
}

// ---------------------------------------------------------------------------------------------------------------
// Sort

export interface SortOption {
  key: string;
  label: string;
}

export interface SortValue {
  key: string;
  order: 'asc' | 'desc';
}

export const sortParam = (s: SortValue) => `${s.key},${s.order}`;

/** `key,order`, where a key may name several properties (`series,metadata.numberSort,asc`). */
export function parseSort(value: string | null, options: readonly SortOption[]): SortValue | null {
  if (!value) return null;
  const parts = value.split(',');
  const last = parts.at(-1);
  const order = last === 'asc' || last === 'desc' ? (parts.pop() as 'asc' | 'desc') : 'asc';
  const key = parts.join(',');
  if (!key || !options.some((o) => o.key === key)) return null;
  return { key, order };
}

/** Clicking a sort: a new key starts descending, the active one flips. */
export const nextSort = (current: SortValue, key: string): SortValue =>
  current.key === key ? { key, order: current.order === 'asc' ? 'desc' : 'asc' } : { key, order: 'desc' };
