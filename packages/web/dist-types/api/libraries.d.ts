/**
 * The fields of Komga's LibraryDto the shell needs. Replace with `import type { LibraryDto } from '@quire/api'`
 * once the libraries schema exists there.
 */
export interface LibraryDto {
    id: string;
    name: string;
    root: string;
    unavailable: boolean;
}
export declare const libraryKeys: {
    all: readonly ["libraries"];
    list: () => readonly ["libraries", "list"];
    detail: (id: string) => readonly ["libraries", "detail", string];
};
export declare const libraryQueries: {
    /**
     * Every library the user can see. A failure other than 401 counts as "no libraries", so the shell can still
     * decide where to go (welcome screen) instead of showing an error everywhere.
     */
    list: () => import("@tanstack/query-core").OmitKeyof<import("@tanstack/react-query").UseQueryOptions<LibraryDto[], Error, LibraryDto[], readonly ["libraries", "list"]>, "queryFn"> & {
        queryFn?: import("@tanstack/query-core").QueryFunction<LibraryDto[], readonly ["libraries", "list"], never> | undefined;
    } & import("@tanstack/query-core").QueryKeyWithDataTag<readonly ["libraries", "list"], LibraryDto[], Error>;
};
export declare const useLibraries: () => import("@tanstack/react-query").UseQueryResult<LibraryDto[], Error>;
