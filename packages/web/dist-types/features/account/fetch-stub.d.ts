export interface RecordedRequest {
    method: string;
    path: string;
    search: string;
    body: unknown;
}
/**
 * Replaces global fetch with a table of answers (`'GET /api/v1/settings'` → status and JSON); unknown requests get
 * 404. Every request is recorded, body parsed as JSON.
 */
export declare function stubFetch(answers: Record<string, {
    status?: number;
    json?: unknown;
}>): {
    requests: RecordedRequest[];
    fetchMock: import("vitest").Mock<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>;
};
