import type { AgeRestrictionUpdateDto, UserDto, UserUpdateDto } from '@quire/api';

/** Something@something.tld, without spaces: a valid address for spec §5 (the server checks `.+@.+\..+`). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type FieldError = 'required' | 'invalidEmail' | 'minZero';

export function validateNewUser(form: { email: string; password: string }): {
  email?: FieldError;
  password?: FieldError;
} {
  const errors: { email?: FieldError; password?: FieldError } = {};
  const email = form.email.trim();
  if (!email) errors.email = 'required';
  else if (!EMAIL_PATTERN.test(email)) errors.email = 'invalidEmail';
  if (!form.password) errors.password = 'required';
  return errors;
}

export type RestrictionKind = 'NONE' | 'ALLOW_ONLY' | 'EXCLUDE';

export interface RestrictionsForm {
  allLibraries: boolean;
  libraryIds: string[];
  restriction: RestrictionKind;
  age: string;
  labelsAllow: string[];
  labelsExclude: string[];
}

export function restrictionsFormOf(user: UserDto): RestrictionsForm {
  return {
    allLibraries: user.sharedAllLibraries,
    libraryIds: [...user.sharedLibrariesIds],
    restriction: user.ageRestriction?.restriction ?? 'NONE',
    age: user.ageRestriction ? String(user.ageRestriction.age) : '',
    labelsAllow: [...user.labelsAllow],
    labelsExclude: [...user.labelsExclude],
  };
}

/** Age is needed only with a restriction, and must be a whole number of 0 or more. */
export function validateRestrictions(form: RestrictionsForm): { age?: FieldError } {
  if (form.restriction === 'NONE') return {};
  if (form.age.trim() === '') return { age: 'required' };
  const age = Number(form.age);
  if (!Number.isInteger(age) || age < 0) return { age: 'minZero' };
  return {};
}

export function restrictionsUpdate(form: RestrictionsForm): UserUpdateDto {
  const ageRestriction: AgeRestrictionUpdateDto | null =
    form.restriction === 'NONE' ? null : { age: Number(form.age), restriction: form.restriction };
  return {
    sharedLibraries: { all: form.allLibraries, libraryIds: form.allLibraries ? [] : form.libraryIds },
    ageRestriction,
    labelsAllow: form.labelsAllow,
    labelsExclude: form.labelsExclude,
  };
}
