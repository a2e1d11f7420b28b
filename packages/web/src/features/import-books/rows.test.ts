import { describe, expect, it } from 'vitest';
import type { TransientBookDto } from '@quire/api';
import { buildBook, buildSeries } from '../../test/fixtures';
import { importRequest, newRow, rowProblem, upgradeTarget, withAnalysis } from './rows';

const scanned: TransientBookDto = {
  id: 't1',
  name: 'Alpha 002',
  url: '/incoming/Alpha 002.cbz',
  fileLastModified: '2026-01-01T10:00:00',
  sizeBytes: 1,
  size: '1 B',
  status: 'UNKNOWN',
  mediaType: '',
  pages: [],
  files: [],
  comment: '',
};
const book1 = buildBook({ id: 'b1' }, { numberSort: 1 });
const book2 = buildBook({ id: 'b2' }, { numberSort: 2 });

describe('import rows', () => {
  it('upgrades the book with the same sort number, or a one-shot series’ only book', () => {
    const series = buildSeries();
    expect(upgradeTarget(series, [book1, book2], 2)?.id).toBe('b2');
    expect(upgradeTarget(series, [book1, book2], 3)).toBeUndefined();
    expect(upgradeTarget(series, [book1, book2], undefined)).toBeUndefined();
    expect(upgradeTarget({ ...series, oneshot: true }, [book1], undefined)?.id).toBe('b1');
    expect(upgradeTarget(series, undefined, 1)).toBeUndefined();
  });

  it('imports only analysed books without errors that have a series, keeping the user’s choices over the guesses', () => {
    const row = newRow(scanned);
    expect(rowProblem(row, undefined)).toBe('analyzeFirst');
    const failed = withAnalysis(row, { ...scanned, status: 'ERROR', comment: 'ERR_1006' });
    expect(rowProblem(failed, undefined)).toBe('onlyWithoutErrors');
    const noSeries = withAnalysis(row, { ...scanned, status: 'READY' });
    expect(rowProblem(noSeries, undefined)).toBe('chooseSeries');
    expect(importRequest(noSeries, undefined)).toBeUndefined();

    const chosen = withAnalysis(
      { ...row, seriesId: 'mine' },
      { ...scanned, status: 'READY', seriesId: 'guess', number: 2 },
    );
    expect(chosen).toMatchObject({ seriesId: 'mine', number: 2 });
    expect(rowProblem(chosen, book2)).toBe('upgrade');
    expect(importRequest(chosen, book2)).toEqual({
      seriesId: 'mine',
      sourceFile: '/incoming/Alpha 002.cbz',
      upgradeBookId: 'b2',
      destinationName: 'Alpha 002',
    });
    expect(importRequest({ ...chosen, selected: false }, book2)).toBeUndefined();
    expect(importRequest({ ...chosen, destinationName: '  ' }, undefined)).toEqual({
      seriesId: 'mine',
      sourceFile: '/incoming/Alpha 002.cbz',
    });
  });
});
