import { type ReactNode } from 'react';
import { QueryClient, type QueryClientConfig } from '@tanstack/react-query';
/**
 * The app's QueryClient. A 401 on any query means the session is gone: the current user becomes null and the
 * guards send the user to startup (then login).
 */
export declare function createQueryClient(config?: QueryClientConfig): QueryClient;
/** Query cache, translations, theme and direction: everything a screen needs around it, in tests too. */
export declare function AppProviders({ queryClient, children }: {
    queryClient: QueryClient;
    children: ReactNode;
}): import("react").JSX.Element;
