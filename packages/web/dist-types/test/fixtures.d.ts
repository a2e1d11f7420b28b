import type { UserDto } from '@quire/api';
import type { LibraryDto } from '../api/libraries';
export declare function buildUser(overrides?: Partial<UserDto>): UserDto;
export declare const buildAdmin: (overrides?: Partial<UserDto>) => {
    ageRestriction?: {
        age: number;
        restriction: "ALLOW_ONLY" | "EXCLUDE";
    } | undefined;
    id: string;
    email: string;
    roles: string[];
    sharedAllLibraries: boolean;
    sharedLibrariesIds: string[];
    labelsAllow: string[];
    labelsExclude: string[];
};
export declare function buildLibrary(overrides?: Partial<LibraryDto>): LibraryDto;
