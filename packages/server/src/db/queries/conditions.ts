import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type {
  BooleanOperator,
  DateOperator,
  EqualityOperator,
  NullableNumericOperator,
  NullableOperator,
  NumericOperator,
  SearchConditionBook,
  SearchConditionSeries,
  StringOperator,
} from '@quire/api';
import type { ContentViewer } from '../../domain/restrictions.js';
import type { AgeRestriction } from '../../domain/user.js';
import { fold } from '../../domain/text.js';

/**
 * Search conditions (api.md §5.1, engine.md §14.3) as SQL, and the caller's library sharing and content
 * restrictions (api.md §2.10, engine.md §15) that every list, count and search is filtered by.
 *
 * Table aliases the fragments refer to — series lists: `s` series, `sm` series_metadata, `ag`
 * book_metadata_aggregation, `rs` read_progress_series (caller's), `ss` series_search; book lists: `b` book, `bm`
 * book_metadata, `sm` its series' metadata, `m` media, `r` read_progress (caller's), `bs` book_search, `ss` its
 * series' series_search.
 */

export type Sql = RawBuilder<SqlBool>;

/** What a viewer may see, as the SQL of {@link visibility} reads it (labels lower-cased). */
export interface Visibility {
  /** null: every library. */
  libraryIds: readonly string[] | null;
  ageRestriction: AgeRestriction | null;
  labelsAllow: readonly string[];
  labelsExclude: readonly string[];
}

/** Who is listing: their id (read progress) and what they may see. */
export interface ListContext extends Visibility {
  userId: string;
}

export function visibilityOf(viewer: ContentViewer): Visibility {
  return {
    libraryIds: viewer.roles.has('ADMIN') || viewer.sharedAllLibraries ? null : [...viewer.sharedLibraryIds],
    ageRestriction: viewer.ageRestriction,
    labelsAllow: viewer.labelsAllow.map((l) => l.toLowerCase()),
    labelsExclude: viewer.labelsExclude.map((l) => l.toLowerCase()),
  };
}

export function listContext(user: ContentViewer & { id: string }): ListContext {
  return { userId: user.id, ...visibilityOf(user) };
}

/** Joins a fragment needs beyond the entity's base tables. */
export type Join = 'ag' | 'rs' | 'ss' | 'm' | 'r' | 'bs' | 'bm' | 'sm';

export interface CompiledCondition {
  where: Sql | null;
  joins: Set<Join>;
  /** The collection / read list of the first `is` condition on one: `collection.number` / `readList.number` sort by it. */
  collectionId?: string;
  readListId?: string;
}

const FALSE: Sql = sql<SqlBool>`FALSE`;

export const and = (parts: (Sql | null)[]): Sql | null => {
  const xs = parts.filter((p): p is Sql => p !== null);
  if (xs.length === 0) return null;
  return xs.length === 1 ? xs[0]! : sql<SqlBool>`(${sql.join(xs, sql` AND `)})`;
};
const or = (parts: (Sql | null)[]): Sql | null => {
  // An ignored member of anyOf leaves the others (jOOQ's noCondition is neutral in OR too).
  const xs = parts.filter((p): p is Sql => p !== null);
  if (xs.length === 0) return null;
  return xs.length === 1 ? xs[0]! : sql<SqlBool>`(${sql.join(xs, sql` OR `)})`;
};
const not = (x: Sql): Sql => sql<SqlBool>`NOT (${x})`;

// ---- visibility ----

/**
 * Libraries the caller may see, then the content restrictions on the series (`seriesId`, `ageRating` are SQL
 * expressions of the query's series): (age allowed OR label allowed) AND NOT age denied AND NOT label denied.
 */
export function visibility(ctx: Visibility, libraryId: Sql, seriesId: Sql, ageRating: Sql): Sql | null {
  const parts: (Sql | null)[] = [];
  if (ctx.libraryIds !== null) {
    parts.push(ctx.libraryIds.length ? sql<SqlBool>`${libraryId} IN (${sql.join(ctx.libraryIds)})` : FALSE);
  }
  const labelIn = (labels: readonly string[]) =>
    sql<SqlBool>`EXISTS (SELECT 1 FROM series_metadata_sharing x WHERE x.series_id = ${seriesId} AND lower(x.label) IN (${sql.join(labels)}))`;
  const age = ctx.ageRestriction;
  const allow: Sql[] = [];
  if (age?.restriction === 'ALLOW_ONLY')
    allow.push(sql<SqlBool>`(${ageRating} IS NOT NULL AND ${ageRating} <= ${age.age})`);
  if (ctx.labelsAllow.length) allow.push(labelIn(ctx.labelsAllow));
  parts.push(or(allow));
  if (age?.restriction === 'EXCLUDE')
    parts.push(sql<SqlBool>`NOT (${ageRating} IS NOT NULL AND ${ageRating} >= ${age.age})`);
  if (ctx.labelsExclude.length) parts.push(not(labelIn(ctx.labelsExclude)));
  return and(parts);
}

export const seriesVisibility = (ctx: Visibility) => visibility(ctx, sql`s.library_id`, sql`s.id`, sql`sm.age_rating`);
export const bookVisibility = (ctx: Visibility) =>
  visibility(ctx, sql`b.library_id`, sql`b.series_id`, sql`sm.age_rating`);

/** Whether a viewer may see a series aliased `s` (its metadata `sm`), for queries outside the list engine. */
export const seriesVisibleTo = (viewer: ContentViewer): Sql =>
  seriesVisibility(visibilityOf(viewer)) ?? sql<SqlBool>`TRUE`;

/**
 * Whole days of a `java.time.Duration` text (`PnDTnHnMn.nS`), or null when it is not one (the request schema has
 * refused those already).
 */
export function durationDays(text: string): number | null {
  const m = /^([-+]?)P(?:([-+]?\d+)D)?(?:T(?:([-+]?\d+)H)?(?:([-+]?\d+)M)?(?:([-+]?\d+(?:[.,]\d+)?)S)?)?$/i.exec(text);
  if (!m || text.toUpperCase().endsWith('T') || /^[-+]?P$/i.test(text)) return null;
  const [, sign, d, h, min, s] = m;
  const seconds =
    Number(d ?? 0) * 86400 + Number(h ?? 0) * 3600 + Number(min ?? 0) * 60 + Number((s ?? '0').replace(',', '.'));
  const days = Math.trunc(seconds / 86400);
  return sign === '-' ? -days : days;
}

// ---- operators → SQL ----

const likeEscape = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

function stringOp(column: Sql, op: StringOperator): Sql {
  const v = fold(op.value);
  const like = (pattern: string) => sql<SqlBool>`${column} LIKE ${pattern} ESCAPE '\\'`;
  switch (op.operator) {
    case 'is':
      return sql<SqlBool>`${column} = ${v}`;
    case 'isNot':
      return sql<SqlBool>`${column} != ${v}`;
    case 'contains':
      return like(`%${likeEscape(v)}%`);
    case 'doesNotContain':
      return not(like(`%${likeEscape(v)}%`));
    case 'beginsWith':
      return like(`${likeEscape(v)}%`);
    case 'doesNotBeginWith':
      return not(like(`${likeEscape(v)}%`));
    case 'endsWith':
      return like(`%${likeEscape(v)}`);
    case 'doesNotEndWith':
      return not(like(`%${likeEscape(v)}`));
  }
}

const utcDate = (iso: string) => new Date(Date.parse(iso)).toISOString().slice(0, 10);
const daysAgo = (days: number) => new Date(Date.now() - days * 86400_000).toISOString().slice(0, 10);

function dateOp(column: Sql, op: DateOperator): Sql {
  switch (op.operator) {
    case 'before':
      return sql<SqlBool>`${column} < ${utcDate(op.dateTime)}`;
    case 'after':
      return sql<SqlBool>`${column} > ${utcDate(op.dateTime)}`;
    case 'isInTheLast':
      return sql<SqlBool>`${column} > ${daysAgo(durationDays(op.duration) ?? 0)}`;
    case 'isNotInTheLast':
      return sql<SqlBool>`${column} < ${daysAgo(durationDays(op.duration) ?? 0)}`;
    case 'isNull':
      return sql<SqlBool>`${column} IS NULL`;
    case 'isNotNull':
      return sql<SqlBool>`${column} IS NOT NULL`;
  }
}

/** greaterThan and lessThan include the bound (api.md §5.1); isNot also matches no value when there can be none. */
function numericOp(column: Sql, op: NumericOperator | NullableNumericOperator, nullable: boolean): Sql {
  switch (op.operator) {
    case 'is':
      return sql<SqlBool>`${column} = ${op.value}`;
    case 'isNot':
      return nullable
        ? sql<SqlBool>`(${column} != ${op.value} OR ${column} IS NULL)`
        : sql<SqlBool>`${column} != ${op.value}`;
    case 'greaterThan':
      return sql<SqlBool>`${column} >= ${op.value}`;
    case 'lessThan':
      return sql<SqlBool>`${column} <= ${op.value}`;
    case 'isNull':
      return sql<SqlBool>`${column} IS NULL`;
    case 'isNotNull':
      return sql<SqlBool>`${column} IS NOT NULL`;
  }
}

const booleanOp = (column: Sql, op: BooleanOperator) =>
  op.operator === 'isTrue' ? sql<SqlBool>`${column} = TRUE` : sql<SqlBool>`${column} = FALSE`;
const nullDate = (column: Sql, op: BooleanOperator) =>
  op.operator === 'isTrue' ? sql<SqlBool>`${column} IS NOT NULL` : sql<SqlBool>`${column} IS NULL`;

/** `id IN (values of the side table)` for is / isNot / isNull / isNotNull, compared without regard to case. */
function membership(id: Sql, op: NullableOperator, select: (value: string | null) => Sql): Sql {
  switch (op.operator) {
    case 'is':
      return sql<SqlBool>`${id} IN (${select(op.value)})`;
    case 'isNot':
      return sql<SqlBool>`${id} NOT IN (${select(op.value)})`;
    case 'isNull':
      return sql<SqlBool>`${id} NOT IN (${select(null)})`;
    case 'isNotNull':
      return sql<SqlBool>`${id} IN (${select(null)})`;
  }
}

const valueMatch = (column: string, value: string | null) =>
  value === null ? sql`TRUE` : sql`${sql.ref(column)} = ${value} COLLATE NOCASE`;

function authorSelect(
  table: 'book_metadata_author' | 'book_metadata_aggregation_author',
  idColumn: string,
  name?: string,
  role?: string,
) {
  const parts = [sql`TRUE`];
  if (name !== undefined) parts.push(sql`name = ${name} COLLATE NOCASE`);
  if (role !== undefined) parts.push(sql`role = ${role} COLLATE NOCASE`);
  return sql`SELECT ${sql.ref(idColumn)} FROM ${sql.table(table)} WHERE ${sql.join(parts, sql` AND `)}`;
}

const DIVINA_TYPES = [
  'application/zip',
  'application/x-rar-compressed; version=4',
  'application/x-rar-compressed; version=5',
  'application/x-7z-compressed',
  'application/x-tar',
  'application/gzip',
  'application/x-xz',
  'application/x-bzip2',
  'application/zstd',
];
const PROFILE_TYPES: Record<string, string[]> = {
  DIVINA: DIVINA_TYPES,
  PDF: ['application/pdf'],
  EPUB: ['application/epub+zip'],
};

// ---- series ----

type SeriesLeaf = Exclude<SearchConditionSeries, { allOf: unknown } | { anyOf: unknown }>;

/** The condition tree as SQL over a series list (the caller's read status is read from `rs`). */
export function compileSeriesCondition(condition: SearchConditionSeries | null): CompiledCondition {
  const out: CompiledCondition = { where: null, joins: new Set() };
  const walk = (c: SearchConditionSeries): Sql | null => {
    if ('allOf' in c) return and(c.allOf.map(walk));
    if ('anyOf' in c) return or(c.anyOf.map(walk));
    return seriesLeaf(c as SeriesLeaf, out);
  };
  out.where = condition ? walk(condition) : null;
  return out;
}

function seriesLeaf(c: SeriesLeaf, out: CompiledCondition): Sql | null {
  if ('libraryId' in c) return equality(sql`s.library_id`, c.libraryId);
  if ('collectionId' in c) {
    const op = c.collectionId;
    const inCollection = sql<SqlBool>`EXISTS (SELECT 1 FROM collection_series x WHERE x.series_id = s.id AND x.collection_id = ${op.value})`;
    if (op.operator === 'is') {
      out.collectionId ??= op.value;
      return inCollection;
    }
    return not(inCollection);
  }
  if ('deleted' in c) return nullDate(sql`s.deleted_date`, c.deleted);
  if ('complete' in c) {
    return c.complete.operator === 'isTrue'
      ? sql<SqlBool>`(sm.total_book_count IS NOT NULL AND sm.total_book_count = s.book_count)`
      : sql<SqlBool>`(sm.total_book_count IS NOT NULL AND sm.total_book_count != s.book_count)`;
  }
  if ('oneShot' in c) return booleanOp(sql`s.oneshot`, c.oneShot);
  if ('title' in c) {
    out.joins.add('ss');
    return stringOp(sql`coalesce(ss.title_fold, lower(sm.title))`, c.title);
  }
  if ('titleSort' in c) {
    out.joins.add('ss');
    return stringOp(sql`coalesce(ss.title_sort_fold, lower(sm.title_sort))`, c.titleSort);
  }
  if ('releaseDate' in c) {
    out.joins.add('ag');
    return dateOp(sql`ag.release_date`, c.releaseDate);
  }
  if ('tag' in c) {
    return membership(
      sql`s.id`,
      c.tag,
      (v) =>
        sql`SELECT series_id FROM series_metadata_tag WHERE ${valueMatch('tag', v)} UNION SELECT series_id FROM book_metadata_aggregation_tag WHERE ${valueMatch('tag', v)}`,
    );
  }
  if ('sharingLabel' in c) {
    return membership(
      sql`s.id`,
      c.sharingLabel,
      (v) => sql`SELECT series_id FROM series_metadata_sharing WHERE ${valueMatch('label', v)}`,
    );
  }
  if ('genre' in c) {
    return membership(
      sql`s.id`,
      c.genre,
      (v) => sql`SELECT series_id FROM series_metadata_genre WHERE ${valueMatch('genre', v)}`,
    );
  }
  if ('publisher' in c) return equality(sql`sm.publisher`, c.publisher, true);
  if ('language' in c) return equality(sql`sm.language`, c.language, true);
  if ('ageRating' in c) return numericOp(sql`sm.age_rating`, c.ageRating, true);
  if ('readStatus' in c) {
    out.joins.add('rs');
    const { operator, value } = c.readStatus;
    const is =
      value === 'UNREAD'
        ? sql<SqlBool>`rs.read_count IS NULL`
        : value === 'READ'
          ? sql<SqlBool>`rs.read_count = s.book_count`
          : sql<SqlBool>`rs.read_count != s.book_count`;
    if (operator === 'is') return is;
    return value === 'UNREAD'
      ? sql<SqlBool>`rs.read_count IS NOT NULL`
      : sql<SqlBool>`(NOT (${is}) OR rs.read_count IS NULL)`;
  }
  if ('seriesStatus' in c) return equality(sql`sm.status`, c.seriesStatus);
  if ('author' in c) {
    // null is "not given", as Jackson reads it.
    const name = c.author.value.name ?? undefined;
    const role = c.author.value.role ?? undefined;
    if (name === undefined && role === undefined) return null;
    const inner = authorSelect('book_metadata_aggregation_author', 'series_id', name, role);
    return c.author.operator === 'is' ? sql<SqlBool>`s.id IN (${inner})` : sql<SqlBool>`s.id NOT IN (${inner})`;
  }
  return null;
}

function equality(column: Sql, op: EqualityOperator<string>, ignoreCase = false): Sql {
  const cmp = ignoreCase ? sql`COLLATE NOCASE` : sql``;
  return op.operator === 'is'
    ? sql<SqlBool>`${column} = ${op.value} ${cmp}`
    : sql<SqlBool>`${column} != ${op.value} ${cmp}`;
}

// ---- books ----

type BookLeaf = Exclude<SearchConditionBook, { allOf: unknown } | { anyOf: unknown }>;

/** The condition tree as SQL over a book list (the caller's read status is read from `r`). */
export function compileBookCondition(condition: SearchConditionBook | null): CompiledCondition {
  const out: CompiledCondition = { where: null, joins: new Set() };
  const walk = (c: SearchConditionBook): Sql | null => {
    if ('allOf' in c) return and(c.allOf.map(walk));
    if ('anyOf' in c) return or(c.anyOf.map(walk));
    return bookLeaf(c as BookLeaf, out);
  };
  out.where = condition ? walk(condition) : null;
  return out;
}

function bookLeaf(c: BookLeaf, out: CompiledCondition): Sql | null {
  if ('libraryId' in c) return equality(sql`b.library_id`, c.libraryId);
  if ('seriesId' in c) return equality(sql`b.series_id`, c.seriesId);
  if ('readListId' in c) {
    const op = c.readListId;
    const inList = sql<SqlBool>`EXISTS (SELECT 1 FROM readlist_book x WHERE x.book_id = b.id AND x.readlist_id = ${op.value})`;
    if (op.operator === 'is') {
      out.readListId ??= op.value;
      return inList;
    }
    return not(inList);
  }
  if ('deleted' in c) return nullDate(sql`b.deleted_date`, c.deleted);
  if ('oneShot' in c) return booleanOp(sql`b.oneshot`, c.oneShot);
  if ('title' in c) return stringOp(sql`coalesce(b.sort_title_fold, lower(b.sort_title))`, c.title);
  if ('releaseDate' in c) {
    out.joins.add('bm');
    return dateOp(sql`bm.release_date`, c.releaseDate);
  }
  if ('numberSort' in c) {
    out.joins.add('bm');
    return numericOp(sql`bm.number_sort`, c.numberSort, false);
  }
  if ('tag' in c) {
    return membership(
      sql`b.id`,
      c.tag,
      (v) => sql`SELECT book_id FROM book_metadata_tag WHERE ${valueMatch('tag', v)}`,
    );
  }
  if ('readStatus' in c) {
    out.joins.add('r');
    const { operator, value } = c.readStatus;
    if (operator === 'is') {
      if (value === 'UNREAD') return sql<SqlBool>`r.completed IS NULL`;
      return value === 'READ' ? sql<SqlBool>`r.completed = TRUE` : sql<SqlBool>`r.completed = FALSE`;
    }
    if (value === 'UNREAD') return sql<SqlBool>`r.completed IS NOT NULL`;
    return value === 'READ'
      ? sql<SqlBool>`(r.completed IS NULL OR r.completed = FALSE)`
      : sql<SqlBool>`(r.completed = TRUE OR r.completed IS NULL)`;
  }
  if ('mediaStatus' in c) {
    out.joins.add('m');
    return equality(sql`m.status`, c.mediaStatus);
  }
  if ('mediaProfile' in c) {
    out.joins.add('m');
    const types = PROFILE_TYPES[c.mediaProfile.value] ?? [];
    return c.mediaProfile.operator === 'is'
      ? sql<SqlBool>`m.media_type IN (${sql.join(types)})`
      : sql<SqlBool>`m.media_type NOT IN (${sql.join(types)})`;
  }
  if ('author' in c) {
    // null is "not given", as Jackson reads it.
    const name = c.author.value.name ?? undefined;
    const role = c.author.value.role ?? undefined;
    if (name === undefined && role === undefined) return null;
    const inner = authorSelect('book_metadata_author', 'book_id', name, role);
    return c.author.operator === 'is' ? sql<SqlBool>`b.id IN (${inner})` : sql<SqlBool>`b.id NOT IN (${inner})`;
  }
  if ('poster' in c) {
    const type = c.poster.value.type ?? undefined;
    const selected = c.poster.value.selected ?? undefined;
    if (type === undefined && selected === undefined) return null;
    const parts = [sql`TRUE`];
    if (type !== undefined) parts.push(sql`type = ${type} COLLATE NOCASE`);
    if (selected !== undefined) parts.push(sql`selected = ${selected ? 1 : 0}`);
    const inner = sql`SELECT book_id FROM thumbnail_book WHERE ${sql.join(parts, sql` AND `)}`;
    return c.poster.operator === 'is' ? sql<SqlBool>`b.id IN (${inner})` : sql<SqlBool>`b.id NOT IN (${inner})`;
  }
  return null;
}
