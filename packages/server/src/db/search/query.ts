/**
 * The full-text query language: Lucene's classic syntax as Komga accepts it (engine.md §14.2) — words, "phrases",
 * `field:value`, `field:(group)`, `+`/`-`/`!` prefixes, AND / OR / NOT (also `&&`, `||`), parentheses, a trailing
 * `*` wildcard, numeric ranges `field:[a TO b]` / `{a TO b}`, and `*:*`. The default operator is AND. A query that
 * does not parse matches nothing (`parse` returns null), as in Komga.
 */

export type QueryNode =
  | { kind: 'all' }
  | { kind: 'term'; field: string | null; text: string; prefix: boolean }
  | { kind: 'phrase'; field: string | null; text: string }
  | { kind: 'range'; field: string | null; from: string; to: string; fromInclusive: boolean; toInclusive: boolean }
  | { kind: 'and'; items: QueryNode[] }
  | { kind: 'or'; items: QueryNode[] }
  | { kind: 'not'; item: QueryNode };

type Token =
  | { t: 'word'; v: string; escapedStar: boolean }
  | { t: 'phrase'; v: string }
  | { t: 'range'; from: string; to: string; fromInclusive: boolean; toInclusive: boolean }
  | { t: 'op'; v: 'AND' | 'OR' | 'NOT' }
  | { t: 'prefix'; v: '+' | '-' }
  | { t: '(' }
  | { t: ')' }
  | { t: 'field'; v: string };

class ParseError extends Error {}

const SPECIAL = new Set([' ', '\t', '\n', '\r', '(', ')', '"', ':', '[', ']', '{', '}', '^', '~']);

function tokenize(input: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = input.length;
  while (i < n) {
    const c = input[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '(' || c === ')') {
      out.push({ t: c });
      i++;
      continue;
    }
    if (c === '&' && input[i + 1] === '&') {
      out.push({ t: 'op', v: 'AND' });
      i += 2;
      continue;
    }
    if (c === '|' && input[i + 1] === '|') {
      out.push({ t: 'op', v: 'OR' });
      i += 2;
      continue;
    }
    if ((c === '+' || c === '-' || c === '!') && (out.length === 0 || isBoundary(input[i - 1]))) {
      if (c === '!') out.push({ t: 'op', v: 'NOT' });
      else out.push({ t: 'prefix', v: c });
      i++;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let v = '';
      while (j < n && input[j] !== '"') {
        if (input[j] === '\\' && j + 1 < n) j++;
        v += input[j];
        j++;
      }
      if (j >= n) throw new ParseError('unterminated phrase');
      out.push({ t: 'phrase', v });
      i = j + 1;
      skipModifiers();
      continue;
    }
    if (c === '[' || c === '{') {
      const end = findRangeEnd(input, i + 1);
      if (end < 0) throw new ParseError('unterminated range');
      const body = input.slice(i + 1, end).trim();
      const m = /^(\S+)\s+TO\s+(\S+)$/.exec(body);
      if (!m) throw new ParseError('bad range');
      out.push({
        t: 'range',
        from: m[1]!,
        to: m[2]!,
        fromInclusive: c === '[',
        toInclusive: input[end] === ']',
      });
      i = end + 1;
      continue;
    }
    if (c === ']' || c === '}' || c === ':' || c === '^' || c === '~') throw new ParseError(`unexpected ${c}`);
    // A word: up to a special character, with backslash escapes.
    let v = '';
    let escapedStar = false;
    let j = i;
    while (j < n && !SPECIAL.has(input[j]!)) {
      if (input[j] === '\\' && j + 1 < n) {
        if (input[j + 1] === '*') escapedStar = true;
        v += input[j + 1];
        j += 2;
        continue;
      }
      v += input[j];
      j++;
    }
    i = j;
    if (input[i] === ':') {
      out.push({ t: 'field', v });
      i++;
      continue;
    }
    if (v === 'AND' || v === 'OR' || v === 'NOT') out.push({ t: 'op', v });
    else out.push({ t: 'word', v, escapedStar });
    skipModifiers();
  }
  return out;

  // Boosts and fuzziness (`^2`, `~1`) change scoring only; they are read and dropped.
  function skipModifiers() {
    while (input[i] === '^' || input[i] === '~') {
      i++;
      while (i < n && /[0-9.]/.test(input[i]!)) i++;
    }
  }
}

const isBoundary = (c: string | undefined) => c === undefined || /[\s(]/.test(c);

function findRangeEnd(input: string, from: number): number {
  for (let j = from; j < input.length; j++) if (input[j] === ']' || input[j] === '}') return j;
  return -1;
}

/** The query tree of `input`, or null when it does not parse. */
export function parse(input: string): QueryNode | null {
  let tokens: Token[];
  try {
    tokens = tokenize(input);
  } catch {
    return null;
  }
  let pos = 0;
  const peek = () => tokens[pos];

  const orExpr = (field: string | null): QueryNode => {
    const items = [andExpr(field)];
    while (peek()?.t === 'op' && (peek() as { v: string }).v === 'OR') {
      pos++;
      items.push(andExpr(field));
    }
    return items.length === 1 ? items[0]! : { kind: 'or', items };
  };

  const andExpr = (field: string | null): QueryNode => {
    const items = [unary(field)];
    for (;;) {
      const t = peek();
      if (!t || t.t === ')' || (t.t === 'op' && t.v === 'OR')) break;
      if (t.t === 'op' && t.v === 'AND') {
        pos++;
        if (!peek() || peek()!.t === ')') throw new ParseError('dangling AND');
      }
      items.push(unary(field));
    }
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  };

  const unary = (field: string | null): QueryNode => {
    const t = peek();
    if (!t) throw new ParseError('unexpected end');
    if ((t.t === 'op' && t.v === 'NOT') || (t.t === 'prefix' && t.v === '-')) {
      pos++;
      return { kind: 'not', item: unary(field) };
    }
    if (t.t === 'prefix') {
      pos++;
      return unary(field);
    }
    return primary(field);
  };

  const primary = (field: string | null): QueryNode => {
    const t = tokens[pos++];
    if (!t) throw new ParseError('unexpected end');
    switch (t.t) {
      case 'field': {
        const next = peek();
        if (!next || next.t === ')' || next.t === 'op' || next.t === 'field')
          throw new ParseError('field without value');
        if (t.v === '*' && next.t === 'word' && next.v === '*') {
          pos++;
          return { kind: 'all' };
        }
        return primary(t.v.toLowerCase());
      }
      case '(': {
        const inner = orExpr(field);
        if (tokens[pos++]?.t !== ')') throw new ParseError('unbalanced parentheses');
        return inner;
      }
      case 'phrase':
        return { kind: 'phrase', field, text: t.v };
      case 'range':
        return {
          kind: 'range',
          field,
          from: t.from,
          to: t.to,
          fromInclusive: t.fromInclusive,
          toInclusive: t.toInclusive,
        };
      case 'word': {
        if (!t.escapedStar && (t.v.startsWith('*') || t.v.startsWith('?'))) {
          // Lucene refuses leading wildcards, except the lone `*` of `*:*`.
          throw new ParseError('leading wildcard');
        }
        const prefix = !t.escapedStar && t.v.endsWith('*');
        return { kind: 'term', field, text: prefix ? t.v.slice(0, -1) : t.v, prefix };
      }
      default:
        throw new ParseError(`unexpected ${t.t}`);
    }
  };

  try {
    if (tokens.length === 0) return null;
    const tree = orExpr(null);
    if (pos !== tokens.length) throw new ParseError('trailing input');
    return tree;
  } catch {
    return null;
  }
}
