/** Server settings and management (api.md §9.1, §9.4). ADMIN only. */
export declare const settingsKeys: {
    all: readonly ["settings"];
    server: () => readonly ["settings", "server"];
    restartRequired: () => readonly ["settings", "restart-required"];
};
export declare const settingsQueries: {
    server: () => import("@tanstack/query-core").OmitKeyof<import("@tanstack/react-query").UseQueryOptions<{
        serverPort: {
            configurationSource: number | null;
            databaseSource: number | null;
            effectiveValue: number | null;
        };
        serverContextPath: {
            configurationSource: string | null;
            databaseSource: string | null;
            effectiveValue: string | null;
        };
        thumbnailSize: "DEFAULT" | "MEDIUM" | "LARGE" | "XLARGE";
        deleteEmptyCollections: boolean;
        deleteEmptyReadLists: boolean;
        taskPoolSize: number;
        rememberMeDurationDays: number;
        koboProxy: boolean;
        koboPort: number | null;
        kepubifyPath: {
            configurationSource: string | null;
            databaseSource: string | null;
            effectiveValue: string | null;
        };
    }, Error, {
        serverPort: {
            configurationSource: number | null;
            databaseSource: number | null;
            effectiveValue: number | null;
        };
        serverContextPath: {
            configurationSource: string | null;
            databaseSource: string | null;
            effectiveValue: string | null;
        };
        thumbnailSize: "DEFAULT" | "MEDIUM" | "LARGE" | "XLARGE";
        deleteEmptyCollections: boolean;
        deleteEmptyReadLists: boolean;
        taskPoolSize: number;
        rememberMeDurationDays: number;
        koboProxy: boolean;
        koboPort: number | null;
        kepubifyPath: {
            configurationSource: string | null;
            databaseSource: string | null;
            effectiveValue: string | null;
        };
    }, readonly ["settings", "server"]>, "queryFn"> & {
        queryFn?: import("@tanstack/query-core").QueryFunction<{
            serverPort: {
                configurationSource: number | null;
                databaseSource: number | null;
                effectiveValue: number | null;
            };
            serverContextPath: {
                configurationSource: string | null;
                databaseSource: string | null;
                effectiveValue: string | null;
            };
            thumbnailSize: "DEFAULT" | "MEDIUM" | "LARGE" | "XLARGE";
            deleteEmptyCollections: boolean;
            deleteEmptyReadLists: boolean;
            taskPoolSize: number;
            rememberMeDurationDays: number;
            koboProxy: boolean;
            koboPort: number | null;
            kepubifyPath: {
                configurationSource: string | null;
                databaseSource: string | null;
                effectiveValue: string | null;
            };
        }, readonly ["settings", "server"], never> | undefined;
    } & import("@tanstack/query-core").QueryKeyWithDataTag<readonly ["settings", "server"], {
        serverPort: {
            configurationSource: number | null;
            databaseSource: number | null;
            effectiveValue: number | null;
        };
        serverContextPath: {
            configurationSource: string | null;
            databaseSource: string | null;
            effectiveValue: string | null;
        };
        thumbnailSize: "DEFAULT" | "MEDIUM" | "LARGE" | "XLARGE";
        deleteEmptyCollections: boolean;
        deleteEmptyReadLists: boolean;
        taskPoolSize: number;
        rememberMeDurationDays: number;
        koboProxy: boolean;
        koboPort: number | null;
        kepubifyPath: {
            configurationSource: string | null;
            databaseSource: string | null;
            effectiveValue: string | null;
        };
    }, Error>;
    /**
     * Quire extension: which saved settings wait for a restart. `null` when the server does not offer it
     * (404), in which case the screen says in general which settings need a restart.
     */
    restartRequired: () => import("@tanstack/query-core").OmitKeyof<import("@tanstack/react-query").UseQueryOptions<{
        settings: ("serverPort" | "serverContextPath")[];
        restartRequired: boolean;
    } | null, Error, {
        settings: ("serverPort" | "serverContextPath")[];
        restartRequired: boolean;
    } | null, readonly ["settings", "restart-required"]>, "queryFn"> & {
        queryFn?: import("@tanstack/query-core").QueryFunction<{
            settings: ("serverPort" | "serverContextPath")[];
            restartRequired: boolean;
        } | null, readonly ["settings", "restart-required"], never> | undefined;
    } & import("@tanstack/query-core").QueryKeyWithDataTag<readonly ["settings", "restart-required"], {
        settings: ("serverPort" | "serverContextPath")[];
        restartRequired: boolean;
    } | null, Error>;
};
export declare const useServerSettings: () => import("@tanstack/react-query").UseQueryResult<{
    serverPort: {
        configurationSource: number | null;
        databaseSource: number | null;
        effectiveValue: number | null;
    };
    serverContextPath: {
        configurationSource: string | null;
        databaseSource: string | null;
        effectiveValue: string | null;
    };
    thumbnailSize: "DEFAULT" | "MEDIUM" | "LARGE" | "XLARGE";
    deleteEmptyCollections: boolean;
    deleteEmptyReadLists: boolean;
    taskPoolSize: number;
    rememberMeDurationDays: number;
    koboProxy: boolean;
    koboPort: number | null;
    kepubifyPath: {
        configurationSource: string | null;
        databaseSource: string | null;
        effectiveValue: string | null;
    };
}, Error>;
export declare const useRestartRequired: () => import("@tanstack/react-query").UseQueryResult<{
    settings: ("serverPort" | "serverContextPath")[];
    restartRequired: boolean;
} | null, Error>;
export declare function useUpdateServerSettings(): import("@tanstack/react-query").UseMutationResult<void, Error, {
    serverPort?: number | null | undefined;
    serverContextPath?: string | null | undefined;
    thumbnailSize?: "DEFAULT" | "MEDIUM" | "LARGE" | "XLARGE" | undefined;
    deleteEmptyCollections?: boolean | undefined;
    deleteEmptyReadLists?: boolean | undefined;
    taskPoolSize?: number | undefined;
    rememberMeDurationDays?: number | undefined;
    renewRememberMeKey?: boolean | undefined;
    koboProxy?: boolean | undefined;
    koboPort?: number | null | undefined;
    kepubifyPath?: string | null | undefined;
}, unknown>;
/** Queues regeneration of book posters after the thumbnail size changed. */
export declare function useRegenerateThumbnails(): import("@tanstack/react-query").UseMutationResult<void, Error, boolean, unknown>;
export declare function useShutdown(): import("@tanstack/react-query").UseMutationResult<unknown, Error, void, unknown>;
