import { expect, it } from 'vitest';
import { sharedPath } from '../support/fixtures.js';
import { report, runFuzz } from '../support/fuzz.js';

/*
 * Issue 11, "tests that stay": a short seeded fuzz run against the built server (`npm test` builds first; run
 * `npm run build` before running this file alone). Seed 1's first 60 cases hold an EPUB whose damaged chapter
 * answered 500 while the book was READY. `npm run fuzz -- --cases N --seed S` runs longer ones.
 */
it('60 mutated real books: no crash, no hang, each READY and readable or failed with an ERR code, memory bounded', async () => {
  const result = await runFuzz({ cases: 60, seed: 1, batchSize: 60, fixturesDir: sharedPath('fixtures/real') });
  expect(result.failures, report(result)).toEqual([]);
  expect(Object.values(result.statuses).reduce((a, b) => a + b, 0)).toBe(60);
}, 300_000);
