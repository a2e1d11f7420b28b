import { EVERYTHING, type EntityFields } from './fields.js';
import { parse, type QueryNode } from './query.js';
import { needles, words } from './text.js';

/**
 * Turns a user query into FTS5 MATCH expressions over a trigram-tokenized table (see text.ts for how documents are
 * laid out).
 *
 * `all` selects the hits: bare words searched in the default columns, anywhere inside a word. The `title*`
 * variants search bare words in the title columns only, anywhere / at the start of a word / as whole words; each
 * selects a subset of `all` and serves ranking (title matches first, whole words before word starts before the
 * rest). They are null when the query has no bare word outside a negation.
 */
export interface MatchExpressions {
  all: string;
  titleAny: string | null;
  titleStart: string | null;
  titleWhole: string | null;
  /**
   * Whether the `title*` expressions read the title columns alone (no other field, no negation, no `*:*`), so
   * that a table of those columns alone (`EntityFields.titleTable`) answers them.
   */
  titlesOnly: boolean;
}

/**
 * How an expression is written: FTS5's query language (SQLite), or a SQL condition over the same documents
 * (postgres-fts.ts). Parts given to `and`/`or` are already grouped.
 */
export interface MatchLanguage {
  /** `needle` inside any of `columns`. */
  match(columns: readonly string[], needle: string): string;
  and(parts: string[]): string;
  or(parts: string[]): string;
  /** Everything but `inner`. */
  not(inner: string): string;
  /** `base` without `excluded`. */
  andNot(base: string, excluded: string): string;
  /** Every document. */
  all: string;
}

const ALL = `${EVERYTHING} : "all"`;
const quote = (needle: string) => `"${needle.replaceAll('"', '""')}"`;
const scope = (columns: readonly string[]) => (columns.length === 1 ? columns[0]! : `{${columns.join(' ')}}`);
const group = (c: string) => `(${c})`;

export const FTS5: MatchLanguage = {
  match: (columns, needle) => `${scope(columns)} : ${quote(needle)}`,
  and: (parts) => parts.join(' AND '),
  or: (parts) => parts.join(' OR '),
  not: (inner) => group(`${ALL} NOT ${group(inner)}`),
  andNot: (base, excluded) => `${group(base)} NOT ${group(excluded)}`,
  all: ALL,
};

/** The expressions of `query`, or null when it matches nothing (does not parse, unknown field, always false). */
export function toMatchExpressions(
  query: string,
  fields: EntityFields,
  language: MatchLanguage = FTS5,
): MatchExpressions | null {
  const tree = parse(query);
  if (!tree) return null;
  const finish = (c: Compiled): string | null => (c === false ? null : c === true ? language.all : c);
  const all = finish(compile(tree, fields, { ...ALL_MODE, language }));
  if (all === null) return null;
  const titled = { titled: false };
  const read = new Set<string>();
  const titleLanguage = recording(language, read);
  const title = (needle: Mode['needle']) => {
    const c = compile(tree, fields, { columns: 'title', needle, seen: titled, language: titleLanguage });
    return c === false ? null : c === true ? titleLanguage.all : c;
  };
  const titleAny = title('any');
  if (!titled.titled || titleAny === null)
    return { all, titleAny: null, titleStart: null, titleWhole: null, titlesOnly: false };
  const titleStart = title('start');
  const titleWhole = title('whole');
  return { all, titleAny, titleStart, titleWhole, titlesOnly: [...read].every((c) => fields.titles.includes(c)) };
}

/** `language`, noting in `read` the columns its expressions read (`everything` for negations and `*:*`). */
function recording(language: MatchLanguage, read: Set<string>): MatchLanguage {
  return {
    match: (columns, needle) => {
      for (const c of columns) read.add(c);
      return language.match(columns, needle);
    },
    and: (parts) => language.and(parts),
    or: (parts) => language.or(parts),
    not: (inner) => {
      read.add(EVERYTHING);
      return language.not(inner);
    },
    andNot: (base, excluded) => language.andNot(base, excluded),
    get all() {
      read.add(EVERYTHING);
      return language.all;
    },
  };
}

/** The expression selecting the hits of `query` (null: nothing matches). */
export function toMatchExpression(query: string, fields: EntityFields): string | null {
  return toMatchExpressions(query, fields)?.all ?? null;
}

type Compiled = string | boolean;

interface Mode {
  columns: 'default' | 'title';
  needle: 'any' | 'start' | 'whole';
  /** Set when a bare word was compiled against the title columns. */
  seen?: { titled: boolean };
  language: MatchLanguage;
}
const ALL_MODE = { columns: 'default', needle: 'any' } as const;
/** Ranges expand to one whole-word alternative per value; beyond this many the range matches nothing. */
const MAX_RANGE_VALUES = 1000;

function columnsOf(field: string | null, fields: EntityFields, mode: Mode): readonly string[] | undefined {
  if (field !== null) return fields.fields[field];
  if (mode.columns === 'title') {
    if (mode.seen) mode.seen.titled = true;
    return fields.titles;
  }
  return fields.defaults;
}

/** A needle of 3+ characters inside a word, moved to the start of a word or made a whole word. */
function placed(needle: string, mode: Mode, bare: boolean): string {
  if (!bare || mode.needle === 'any' || needle.startsWith(' ') || needle.endsWith(' ')) return needle;
  return mode.needle === 'start' ? ` ${needle}` : ` ${needle} `;
}

function compile(node: QueryNode, fields: EntityFields, mode: Mode): Compiled {
  const l = mode.language;
  const anyMode: Mode = { ...ALL_MODE, language: l };
  switch (node.kind) {
    case 'all':
      return true;
    case 'term': {
      const columns = columnsOf(node.field, fields, mode);
      if (!columns) return false;
      const ws = words(node.text);
      if (ws.length === 0) return true;
      const parts = ws.flatMap((w, i) => {
        // `ab*`: words starting with "ab"; longer stems already match anywhere inside a word.
        if (node.prefix && i === ws.length - 1 && [...w].length < 3) return [` ${w}`];
        return needles(w).map((n) => placed(n, mode, node.field === null));
      });
      return l.and(parts.map((n) => l.match(columns, n)));
    }
    case 'phrase': {
      const columns = columnsOf(node.field, fields, mode);
      if (!columns) return false;
      const ws = words(node.text);
      if (ws.length === 0) return true;
      if (ws.length === 1)
        return compile({ kind: 'term', field: node.field, text: ws[0]!, prefix: false }, fields, mode);
      return l.match(columns, placed(ws.join(' '), mode, node.field === null));
    }
    case 'range': {
      const columns = columnsOf(node.field, fields, mode);
      const domain = node.field === null ? undefined : fields.numeric[node.field];
      if (!columns || !domain) return false;
      const bound = (v: string, fallback: number) => (v === '*' ? fallback : Number(v));
      let from = bound(node.from, domain[0]);
      let to = bound(node.to, domain[1]);
      if (!Number.isInteger(from) || !Number.isInteger(to)) return false;
      if (!node.fromInclusive && node.from !== '*') from++;
      if (!node.toInclusive && node.to !== '*') to--;
      if (to < from || to - from >= MAX_RANGE_VALUES) return false;
      const values: string[] = [];
      for (let v = from; v <= to; v++) values.push(l.match(columns, ` ${v} `));
      return values.length === 1 ? values[0]! : group(l.or(values));
    }
    case 'not': {
      // What is excluded is excluded from every column, whatever the mode.
      const inner = compile(node.item, fields, anyMode);
      if (typeof inner === 'boolean') return !inner;
      return l.not(inner);
    }
    case 'or': {
      const parts: string[] = [];
      for (const item of node.items) {
        const c = compile(item, fields, mode);
        if (c === true) return true;
        if (c !== false) parts.push(group(c));
      }
      if (parts.length === 0) return false;
      return parts.length === 1 ? parts[0]! : l.or(parts);
    }
    case 'and': {
      const positive: string[] = [];
      const negative: string[] = [];
      for (const item of node.items) {
        if (item.kind === 'not') {
          const c = compile(item.item, fields, anyMode);
          if (c === true) return false;
          if (c !== false) negative.push(group(c));
        } else {
          const c = compile(item, fields, mode);
          if (c === false) return false;
          if (c !== true) positive.push(group(c));
        }
      }
      if (positive.length === 0 && negative.length === 0) return true;
      const base = positive.length === 0 ? l.all : l.and(positive);
      return negative.length === 0 ? base : l.andNot(base, l.or(negative));
    }
  }
}
