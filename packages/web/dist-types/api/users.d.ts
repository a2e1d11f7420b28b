import type { Page } from '@quire/api';
/** Users, the signed-in user's password, API keys and authentication activity (api.md §2.5, §2.9, §3.7). */
export interface ActivityPage {
    page: number;
    size: number;
}
/** The signed-in user is `authKeys.me` (api/auth.ts, `['users', 'me']`); everything here sits beside it. */
export declare const userKeys: {
    all: readonly ["users"];
    lists: () => readonly ["users", "list"];
    latestActivity: (userId: string) => readonly ["users", "latest-activity", string];
    apiKeys: () => readonly ["users", "me", "api-keys"];
    myActivity: (p: ActivityPage) => readonly ["users", "me", "authentication-activity", ActivityPage];
};
export declare const userQueries: {
    list: () => import("@tanstack/query-core").OmitKeyof<import("@tanstack/react-query").UseQueryOptions<{
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
    }[], Error, {
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
    }[], readonly ["users", "list"]>, "queryFn"> & {
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
        }[], readonly ["users", "list"], never> | undefined;
    } & import("@tanstack/query-core").QueryKeyWithDataTag<readonly ["users", "list"], {
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
    }[], Error>;
    /** `null` when the user never authenticated (the server answers 404). */
    latestActivity: (userId: string) => import("@tanstack/query-core").OmitKeyof<import("@tanstack/react-query").UseQueryOptions<{
        source?: string | undefined;
        error?: string | undefined;
        email?: string | undefined;
        userId?: string | undefined;
        apiKeyId?: string | undefined;
        apiKeyComment?: string | undefined;
        ip?: string | undefined;
        userAgent?: string | undefined;
        success: boolean;
        dateTime: string;
    } | null, Error, {
        source?: string | undefined;
        error?: string | undefined;
        email?: string | undefined;
        userId?: string | undefined;
        apiKeyId?: string | undefined;
        apiKeyComment?: string | undefined;
        ip?: string | undefined;
        userAgent?: string | undefined;
        success: boolean;
        dateTime: string;
    } | null, readonly ["users", "latest-activity", string]>, "queryFn"> & {
        queryFn?: import("@tanstack/query-core").QueryFunction<{
            source?: string | undefined;
            error?: string | undefined;
            email?: string | undefined;
            userId?: string | undefined;
            apiKeyId?: string | undefined;
            apiKeyComment?: string | undefined;
            ip?: string | undefined;
            userAgent?: string | undefined;
            success: boolean;
            dateTime: string;
        } | null, readonly ["users", "latest-activity", string], never> | undefined;
    } & import("@tanstack/query-core").QueryKeyWithDataTag<readonly ["users", "latest-activity", string], {
        source?: string | undefined;
        error?: string | undefined;
        email?: string | undefined;
        userId?: string | undefined;
        apiKeyId?: string | undefined;
        apiKeyComment?: string | undefined;
        ip?: string | undefined;
        userAgent?: string | undefined;
        success: boolean;
        dateTime: string;
    } | null, Error>;
    apiKeys: () => import("@tanstack/query-core").OmitKeyof<import("@tanstack/react-query").UseQueryOptions<{
        key: string;
        id: string;
        userId: string;
        comment: string;
        createdDate: string;
        lastModifiedDate: string;
    }[], Error, {
        key: string;
        id: string;
        userId: string;
        comment: string;
        createdDate: string;
        lastModifiedDate: string;
    }[], readonly ["users", "me", "api-keys"]>, "queryFn"> & {
        queryFn?: import("@tanstack/query-core").QueryFunction<{
            key: string;
            id: string;
            userId: string;
            comment: string;
            createdDate: string;
            lastModifiedDate: string;
        }[], readonly ["users", "me", "api-keys"], never> | undefined;
    } & import("@tanstack/query-core").QueryKeyWithDataTag<readonly ["users", "me", "api-keys"], {
        key: string;
        id: string;
        userId: string;
        comment: string;
        createdDate: string;
        lastModifiedDate: string;
    }[], Error>;
    myActivity: (p: ActivityPage) => import("@tanstack/query-core").OmitKeyof<import("@tanstack/react-query").UseQueryOptions<Page<{
        source?: string | undefined;
        error?: string | undefined;
        email?: string | undefined;
        userId?: string | undefined;
        apiKeyId?: string | undefined;
        apiKeyComment?: string | undefined;
        ip?: string | undefined;
        userAgent?: string | undefined;
        success: boolean;
        dateTime: string;
    }>, Error, Page<{
        source?: string | undefined;
        error?: string | undefined;
        email?: string | undefined;
        userId?: string | undefined;
        apiKeyId?: string | undefined;
        apiKeyComment?: string | undefined;
        ip?: string | undefined;
        userAgent?: string | undefined;
        success: boolean;
        dateTime: string;
    }>, readonly ["users", "me", "authentication-activity", ActivityPage]>, "queryFn"> & {
        queryFn?: import("@tanstack/query-core").QueryFunction<Page<{
            source?: string | undefined;
            error?: string | undefined;
            email?: string | undefined;
            userId?: string | undefined;
            apiKeyId?: string | undefined;
            apiKeyComment?: string | undefined;
            ip?: string | undefined;
            userAgent?: string | undefined;
            success: boolean;
            dateTime: string;
        }>, readonly ["users", "me", "authentication-activity", ActivityPage], never> | undefined;
    } & import("@tanstack/query-core").QueryKeyWithDataTag<readonly ["users", "me", "authentication-activity", ActivityPage], Page<{
        source?: string | undefined;
        error?: string | undefined;
        email?: string | undefined;
        userId?: string | undefined;
        apiKeyId?: string | undefined;
        apiKeyComment?: string | undefined;
        ip?: string | undefined;
        userAgent?: string | undefined;
        success: boolean;
        dateTime: string;
    }>, Error>;
};
export declare const useUsers: () => import("@tanstack/react-query").UseQueryResult<{
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
}[], Error>;
export declare const useLatestActivity: (userId: string) => import("@tanstack/react-query").UseQueryResult<{
    source?: string | undefined;
    error?: string | undefined;
    email?: string | undefined;
    userId?: string | undefined;
    apiKeyId?: string | undefined;
    apiKeyComment?: string | undefined;
    ip?: string | undefined;
    userAgent?: string | undefined;
    success: boolean;
    dateTime: string;
} | null, Error>;
export declare const useApiKeys: () => import("@tanstack/react-query").UseQueryResult<{
    key: string;
    id: string;
    userId: string;
    comment: string;
    createdDate: string;
    lastModifiedDate: string;
}[], Error>;
export declare const useMyAuthenticationActivity: (p: ActivityPage) => import("@tanstack/react-query").UseQueryResult<Page<{
    source?: string | undefined;
    error?: string | undefined;
    email?: string | undefined;
    userId?: string | undefined;
    apiKeyId?: string | undefined;
    apiKeyComment?: string | undefined;
    ip?: string | undefined;
    userAgent?: string | undefined;
    success: boolean;
    dateTime: string;
}>, Error>;
export declare function useCreateUser(): import("@tanstack/react-query").UseMutationResult<{
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
}, Error, {
    roles?: string[] | undefined;
    labelsAllow?: string[] | null | undefined;
    labelsExclude?: string[] | null | undefined;
    ageRestriction?: {
        age: number;
        restriction: string;
    } | null | undefined;
    sharedLibraries?: {
        all: boolean;
        libraryIds: string[];
    } | null | undefined;
    email: string;
    password: string;
}, unknown>;
export declare function useUpdateUser(): import("@tanstack/react-query").UseMutationResult<void, Error, {
    roles?: string[] | undefined;
    labelsAllow?: string[] | null | undefined;
    labelsExclude?: string[] | null | undefined;
    ageRestriction?: {
        age: number;
        restriction: string;
    } | null | undefined;
    sharedLibraries?: {
        all: boolean;
        libraryIds: string[];
    } | undefined;
} & {
    id: string;
}, unknown>;
export declare function useDeleteUser(): import("@tanstack/react-query").UseMutationResult<void, Error, string, unknown>;
/** Without `userId` (or with `'me'`) changes the signed-in user's own password. */
export declare function useChangePassword(): import("@tanstack/react-query").UseMutationResult<void, Error, {
    userId?: string;
    password: string;
}, unknown>;
/** Answers the new key with its plain value, which the server never shows again. */
export declare function useCreateApiKey(): import("@tanstack/react-query").UseMutationResult<{
    key: string;
    id: string;
    userId: string;
    comment: string;
    createdDate: string;
    lastModifiedDate: string;
}, Error, string, unknown>;
export declare function useDeleteApiKey(): import("@tanstack/react-query").UseMutationResult<void, Error, string, unknown>;
