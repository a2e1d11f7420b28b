import { useQueryClient } from '@tanstack/react-query';
import type { UserDto } from '@quire/api';
export declare const authKeys: {
    me: readonly ["users", "me"];
    claim: readonly ["claim"];
};
export interface ClaimStatus {
    isClaimed: boolean;
}
export declare const authQueries: {
    /** The current user, or null when the session is missing or expired (401). */
    me: () => import("@tanstack/query-core").OmitKeyof<import("@tanstack/react-query").UseQueryOptions<{
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
    } | null, Error, {
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
    } | null, readonly ["users", "me"]>, "queryFn"> & {
        queryFn?: import("@tanstack/query-core").QueryFunction<{
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
        } | null, readonly ["users", "me"], never> | undefined;
    } & import("@tanstack/query-core").QueryKeyWithDataTag<readonly ["users", "me"], {
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
    } | null, Error>;
    claim: () => import("@tanstack/query-core").OmitKeyof<import("@tanstack/react-query").UseQueryOptions<ClaimStatus, Error, ClaimStatus, readonly ["claim"]>, "queryFn"> & {
        queryFn?: import("@tanstack/query-core").QueryFunction<ClaimStatus, readonly ["claim"], never> | undefined;
    } & import("@tanstack/query-core").QueryKeyWithDataTag<readonly ["claim"], ClaimStatus, Error>;
};
export declare const useCurrentUser: () => import("@tanstack/react-query").UseQueryResult<{
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
} | null, Error>;
export declare const useClaimStatus: () => import("@tanstack/react-query").UseQueryResult<ClaimStatus, Error>;
export declare const isAdmin: (user: UserDto | null | undefined) => boolean;
/** The signed-in user's admin flag (false while loading or signed out). */
export declare function useIsAdmin(): boolean;
export interface Credentials {
    email: string;
    password: string;
}
/** Logs in with Basic auth; the server answers the user and sets the session (and remember-me) cookie. */
export declare function useLogin(): import("@tanstack/react-query").UseMutationResult<{
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
}, Error, Credentials & {
    rememberMe: boolean;
}, unknown>;
/** First run: creates the first (administrator) account, then logs in with it. */
export declare function useClaim(): import("@tanstack/react-query").UseMutationResult<{
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
}, Error, Credentials & {
    rememberMe: boolean;
}, unknown>;
/**
 * Ends the session on the server (a failure is ignored: the client forgets the user anyway). Navigate away before
 * awaiting it, so no protected screen refetches in between.
 */
export declare function useLogout(): import("@tanstack/react-query").UseMutationResult<void | undefined, Error, void, unknown>;
/** Drops every cached answer and marks the user signed out. */
export declare function forgetSession(qc: ReturnType<typeof useQueryClient>): void;
