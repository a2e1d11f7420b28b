import { describe, expect, it } from 'vitest';
import {
  dateProblem,
  duplicateIndexes,
  foldName,
  isbnProblem,
  languageProblem,
  minimumProblem,
  numberSortProblem,
  required,
  urlProblem,
  violationField,
} from './validation';
import { firstDayOfWeek, monthGrid } from './DatePickerButton';

describe('spec §5 checks', () => {
  it.each([
    ['', null],
    ['9780306406157', null],
    ['978-0-306-40615-7', null],
    ['978 0 306 40615 7', null],
    ['9780306406158', 'metadata.validation.isbn'],
    ['0306406152', 'metadata.validation.isbn'],
    ['97803064061570', 'metadata.validation.isbn'],
    ['978030640615X', 'metadata.validation.isbn'],
  ])('ISBN %j → %s', (value, expected) => expect(isbnProblem(value)).toBe(expected));

  it.each([
    ['', null],
    ['2024-02-29', null],
    ['2023-02-29', 'metadata.validation.date'],
    ['2024-2-1', 'metadata.validation.date'],
    ['2024-13-01', 'metadata.validation.date'],
    ['01/02/2024', 'metadata.validation.date'],
  ])('date %j → %s', (value, expected) => expect(dateProblem(value)).toBe(expected));

  it.each([
    ['https://example.org/a', null],
    ['http://example.org', null],
    ['ftp://example.org', 'metadata.validation.urlScheme'],
    ['example.org', 'metadata.validation.url'],
    ['', 'metadata.validation.url'],
  ])('URL %j → %s', (value, expected) => expect(urlProblem(value)).toBe(expected));

  it.each([
    ['', null],
    ['en', null],
    ['pt-BR', null],
    ['zh-Hant-TW', null],
    ['en_US', 'metadata.validation.language'],
    ['english!', 'metadata.validation.language'],
  ])('language %j → %s', (value, expected) => expect(languageProblem(value)).toBe(expected));

  it('age rating 0 or more, total book count 1 or more, blank clears', () => {
    expect(minimumProblem('0', 0)).toBeNull();
    expect(minimumProblem('-1', 0)).toBe('metadata.validation.ageRating');
    expect(minimumProblem('1.5', 0)).toBe('metadata.validation.ageRating');
    expect(minimumProblem('', 1)).toBeNull();
    expect(minimumProblem('0', 1)).toBe('metadata.validation.totalBookCount');
    expect(minimumProblem('12', 1)).toBeNull();
  });

  it('required fields and sort numbers', () => {
    expect(required('  ')).toBe('common.required');
    expect(required('x')).toBeNull();
    expect(numberSortProblem('')).toBe('common.required');
    expect(numberSortProblem('1.5')).toBeNull();
    expect(numberSortProblem('one')).toBe('metadata.validation.number');
  });

  it('compares names without case or accents', () => {
    expect(foldName('  Éclair ')).toBe('eclair');
    expect([...duplicateIndexes(['Home', 'Shop', 'home', '', ''])]).toEqual([2]);
  });

  it('finds the form field a server violation names', () => {
    const fields = ['title', 'isbn', 'links'] as const;
    expect(violationField('updateMetadata.isbn', fields)).toBe('isbn');
    expect(violationField('links.0.url', fields)).toBe('links');
    expect(violationField('links[1].label', fields)).toBe('links');
    expect(violationField('body', fields)).toBeNull();
  });
});

describe('calendar', () => {
  it('starts weeks on the given day', () => {
    // February 2024 starts on a Thursday.
    expect(monthGrid(2024, 1, 1)[0]).toEqual([null, null, null, 1, 2, 3, 4]);
    expect(monthGrid(2024, 1, 7)[0]).toEqual([null, null, null, null, 1, 2, 3]);
    expect(monthGrid(2024, 1, 1).flat().filter(Boolean)).toHaveLength(29);
  });

  it('reads the first day of the week from the locale', () => {
    expect(firstDayOfWeek('en-US')).toBe(7);
    expect(firstDayOfWeek('pl')).toBe(1);
  });
});
