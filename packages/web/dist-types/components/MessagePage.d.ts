import type { ReactNode } from 'react';
/** A centred message with the logo: welcome, not found and empty screens. */
export declare function MessagePage({ title, children }: {
    title: string;
    children?: ReactNode;
}): import("react").JSX.Element;
