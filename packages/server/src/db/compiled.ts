import type { CompiledQuery, Compilable, Kysely, QueryResult } from 'kysely';
import type { DB } from './schema.js';

type AnyDb = Kysely<DB>;

/** Stands for the `index`-th argument while a query is built once; the compiled parameters keep it. */
class Placeholder {
  constructor(readonly index: number) {}
}

/** Where each compiled parameter comes from: an argument's index, or a constant the builder put there. */
type Slot = { arg: number } | { value: unknown };

interface Compiled<R> {
  query: CompiledQuery<R>;
  slots: Slot[];
}

/**
 * A query of the per-book write path built and compiled by Kysely once per database (its dialect's SQL), then run
 * with each call's values: Kysely builds an immutable tree of nodes for every query and compiles it to SQL again
 * on every execution, ~0.1 ms of the main thread and a few kB of garbage a statement, for SQL text that never
 * changes (issue 18: ~24 statements a book on an import, a quarter of what the import allocated).
 *
 * `build` gets stand-ins for the arguments and must use each as a value (a bound parameter), never decide anything
 * from it (no branching on a stand-in, no `sql.lit`): the shape of the query must not depend on the values. A
 * stand-in the compiled query does not bind is refused at the first call.
 */
export function compiledQuery<A extends unknown[], R>(
  build: (db: AnyDb, ...args: A) => Compilable<R>,
): (db: AnyDb, ...args: A) => Promise<QueryResult<R>> {
  // By the dialect's adapter: the database and its transactions share it, and their SQL is the same.
  const cache = new WeakMap<object, Compiled<R>>();
  return async (db, ...args) => {
    const adapter = db.getExecutor().adapter;
    let compiled = cache.get(adapter);
    if (!compiled) {
      compiled = compile(db, build, args.length);
      cache.set(adapter, compiled);
    }
    // Kysely leaves out an insert's or update's column whose value is undefined; bound, it would be NULL or refused.
    if (args.includes(undefined)) throw new TypeError(`A compiled query was given undefined: ${compiled.query.sql}`);
    const { query, slots } = compiled;
    const parameters = slots.map((slot) => ('arg' in slot ? args[slot.arg] : slot.value));
    return db.executeQuery<R>({ ...query, parameters });
  };
}

function compile<A extends unknown[], R>(
  db: AnyDb,
  build: (db: AnyDb, ...args: A) => Compilable<R>,
  arity: number,
): Compiled<R> {
  const stand = Array.from({ length: arity }, (_, i) => new Placeholder(i)) as unknown as A;
  const query = build(db, ...stand).compile();
  const used = new Set<number>();
  const slots = query.parameters.map((p): Slot => {
    if (p instanceof Placeholder) {
      used.add(p.index);
      return { arg: p.index };
    }
    return { value: p };
  });
  if (used.size !== arity)
    throw new Error(`A compiled query binds ${used.size} of its ${arity} arguments: ${query.sql}`);
  return { query, slots };
}
