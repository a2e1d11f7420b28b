// `npm run fuzz -- --cases N --seed S [--case K ...] [--batch B] [--keep DIR] [--rss-limit MB] [--plain]`: mutated real books
// against the built server (packages/server/test/support/fuzz.ts says what is checked). Prints the figures and
// every failure with the command that replays it; exits 1 when anything failed.
import { parseArgs } from 'node:util';
import { join, resolve } from 'node:path';
import { report, runFuzz } from '../packages/server/test/support/fuzz.js';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '200' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    case: { type: 'string', multiple: true },
    batch: { type: 'string', default: '100' },
    keep: { type: 'string' },
    plain: { type: 'boolean', default: false },
    'rss-limit': { type: 'string', default: '2048' },
  },
});

const sharedDir = resolve(process.env.QUIRE_SHARED_DIR ?? join(import.meta.dirname, '../../shared'));
const result = await runFuzz({
  cases: Number(values.cases),
  seed: Number(values.seed),
  only: values.case?.map(Number),
  batchSize: Number(values.batch),
  rssLimitMb: Number(values['rss-limit']),
  plain: values.plain,
  fixturesDir: join(sharedDir, 'fixtures/real'),
  ...(values.keep ? { keepDir: resolve(values.keep) } : {}),
  log: (line) => console.log(line),
});
console.log(`\n${report(result)}`);
process.exitCode = result.failures.length > 0 ? 1 : 0;
