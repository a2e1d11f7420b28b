/**
 * The one way screens reach the server (through the hooks in this folder). Sends the session cookie and
 * `X-Requested-With`, so a 401 never opens the browser's Basic dialog, and turns failures into ApiError.
 */
export declare class ApiError extends Error {
    readonly status: number;
    readonly violations: {
        fieldName: string;
        message: string;
    }[];
    constructor(status: number, 
    /** The server's `message` (often an ERR_xxxx code), or the first violation's message. */
    message: string, violations?: {
        fieldName: string;
        message: string;
    }[]);
}
/** The context path the server was reached under ('' or '/quire'), read from the served index.html. */
export declare function basePath(): string;
export interface ApiInit extends Omit<RequestInit, 'body'> {
    body?: unknown;
    query?: Record<string, string | number | boolean | readonly (string | number)[] | undefined | null>;
}
export declare function apiUrl(path: string, query?: ApiInit['query']): string;
export declare function api<T>(path: string, init?: ApiInit): Promise<T>;
