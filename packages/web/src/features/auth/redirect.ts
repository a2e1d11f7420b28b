/** The `redirect` query value if it is a path inside the app (never another origin), else the fallback. */
export function safeRedirect(value: string | null, fallback = '/'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  if (value.startsWith('/startup') || value.startsWith('/login')) return fallback;
  return value;
}

/** `?redirect=…` to carry over, or '' when there is none. */
export function redirectQuery(value: string | null): string {
  return value ? `?${new URLSearchParams({ redirect: value }).toString()}` : '';
}
