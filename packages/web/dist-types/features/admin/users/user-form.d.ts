import type { UserDto, UserUpdateDto } from '@quire/api';
/** Something@something.tld, without spaces: a valid address for spec §5 (the server checks `.+@.+\..+`). */
export declare const EMAIL_PATTERN: RegExp;
export type FieldError = 'required' | 'invalidEmail' | 'minZero';
export declare function validateNewUser(form: {
    email: string;
    password: string;
}): {
    email?: FieldError;
    password?: FieldError;
};
export type RestrictionKind = 'NONE' | 'ALLOW_ONLY' | 'EXCLUDE';
export interface RestrictionsForm {
    allLibraries: boolean;
    libraryIds: string[];
    restriction: RestrictionKind;
    age: string;
    labelsAllow: string[];
    labelsExclude: string[];
}
export declare function restrictionsFormOf(user: UserDto): RestrictionsForm;
/** Age is needed only with a restriction, and must be a whole number of 0 or more. */
export declare function validateRestrictions(form: RestrictionsForm): {
    age?: FieldError;
};
export declare function restrictionsUpdate(form: RestrictionsForm): UserUpdateDto;
