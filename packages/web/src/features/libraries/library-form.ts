import {
  LIBRARY_DEFAULTS,
  type LibraryCreationDto,
  type LibraryDto,
  type LibraryOptions,
  type LibraryUpdateDto,
} from '../../api/libraries';

/** What the add/edit dialog edits: every option plus name, root and the one-shots directory as plain text. */
export interface LibraryForm extends LibraryOptions {
  name: string;
  root: string;
  oneshotsDirectory: string;
}

export type LibraryFieldError = 'required' | 'duplicate';

export function newLibraryForm(): LibraryForm {
  return {
    ...LIBRARY_DEFAULTS,
    scanDirectoryExclusions: [...LIBRARY_DEFAULTS.scanDirectoryExclusions],
    name: '',
    root: '',
    oneshotsDirectory: '',
  };
}

export function libraryFormOf(library: LibraryDto): LibraryForm {
  const form = newLibraryForm();
  for (const key of Object.keys(LIBRARY_DEFAULTS) as (keyof LibraryOptions)[]) {
    (form as unknown as Record<string, unknown>)[key] = library[key] ?? LIBRARY_DEFAULTS[key];
  }
  return {
    ...form,
    scanDirectoryExclusions: [...(library.scanDirectoryExclusions ?? [])],
    name: library.name,
    root: library.root,
    oneshotsDirectory: library.oneshotsDirectory ?? '',
  };
}

/**
 * Name and root folder are required; the name must differ from every other library's (the server compares exactly,
 * engine.md §1.2). `others` are the libraries besides the one being edited.
 */
export function validateLibrary(
  form: Pick<LibraryForm, 'name' | 'root'>,
  others: readonly Pick<LibraryDto, 'name'>[],
): { name?: LibraryFieldError; root?: LibraryFieldError } {
  const errors: { name?: LibraryFieldError; root?: LibraryFieldError } = {};
  const name = form.name.trim();
  if (!name) errors.name = 'required';
  else if (others.some((l) => l.name === name)) errors.name = 'duplicate';
  if (!form.root.trim()) errors.root = 'required';
  return errors;
}

/** Trimmed, de-duplicated, blanks dropped. */
export function cleanExclusions(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.trim()).filter(Boolean))];
}

/** The POST body: every option, with a blank one-shots directory left out (the server treats it as none). */
export function creationBody(form: LibraryForm): LibraryCreationDto {
  const { oneshotsDirectory, ...rest } = form;
  const oneshots = oneshotsDirectory.trim();
  return {
    ...rest,
    name: form.name.trim(),
    root: form.root.trim(),
    scanDirectoryExclusions: cleanExclusions(form.scanDirectoryExclusions),
    ...(oneshots ? { oneshotsDirectory: oneshots } : {}),
  };
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().every((v, i) => v === [...b].sort()[i]);

/** The PATCH body: only what differs from `initial` (a cleared one-shots directory is sent as ""). */
export function updateChanges(initial: LibraryForm, form: LibraryForm): LibraryUpdateDto {
  const before = creationBody(initial);
  const after = creationBody(form);
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof LibraryCreationDto)[]) {
    const a = after[key];
    const b = before[key];
    if (Array.isArray(a) && Array.isArray(b) ? !sameList(a, b) : a !== b) changes[key] = a;
  }
  if (before.oneshotsDirectory !== undefined && after.oneshotsDirectory === undefined) changes.oneshotsDirectory = '';
  return changes as LibraryUpdateDto;
}
