// A vitest reporter that `scripts/test.mjs` adds beside the default one: it appends what failed in a pass (tests,
// suites and files whose hooks or collection failed, errors thrown outside any test) to the file named by
// QUIRE_TEST_FAILURES, so the run's last lines name every failure. CI keeps only the end of a long log, where the
// default reporter's account of a unit-pass failure, printed before the browser pass ran, is out of sight.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';

/** @typedef {import('vitest/node').Reporter} Reporter */
/** @typedef {import('vitest/node').TestModule} TestModule */
/** @typedef {import('vitest').TestError} TestError */

/** At most this many lines of an error's message and stack: enough to see what and where. */
const ERROR_LINES = 6;

/**
 * @param {ReadonlyArray<TestError>} errors
 * @returns {string[]}
 */
function describe(errors) {
  return errors.flatMap((e) =>
    (e.stack || e.message || String(e))
      .split('\n')
      .filter((line) => line.trim() !== '' && !/node_modules\/|node:internal|\(<anonymous>\)/.test(line))
      .slice(0, ERROR_LINES)
      .map((line) => `      ${line.trim()}`),
  );
}

/** @implements {Reporter} */
export default class FailuresReporter {
  /**
   * @param {ReadonlyArray<TestModule>} testModules
   * @param {ReadonlyArray<TestError>} unhandledErrors
   */
  onTestRunEnd(testModules, unhandledErrors) {
    const file = process.env.QUIRE_TEST_FAILURES;
    if (!file) return;
    /** @type {string[]} */
    const lines = [];
    for (const module of testModules) {
      const where = `${module.project.name || 'tests'}  ${relative(process.cwd(), module.moduleId)}`;
      const moduleErrors = module.errors();
      if (moduleErrors.length > 0) lines.push(`  ${where}`, ...describe(moduleErrors));
      for (const suite of module.children.allSuites()) {
        const suiteErrors = suite.errors();
        if (suiteErrors.length > 0) lines.push(`  ${where} > ${suite.fullName}`, ...describe(suiteErrors));
      }
      for (const test of module.children.allTests('failed')) {
        lines.push(`  ${where} > ${test.fullName}`, ...describe(test.result().errors ?? []));
      }
    }
    if (unhandledErrors.length > 0) lines.push('  errors outside any test', ...describe(unhandledErrors));
    if (lines.length > 0) appendFileSync(file, `${lines.join('\n')}\n`);
  }
}
