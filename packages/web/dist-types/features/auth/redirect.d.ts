/** The `redirect` query value if it is a path inside the app (never another origin), else the fallback. */
export declare function safeRedirect(value: string | null, fallback?: string): string;
/** `?redirect=…` to carry over, or '' when there is none. */
export declare function redirectQuery(value: string | null): string;
