/** The product mark. Decorative: the text next to it names the product. */
export declare function Logo({ size }: {
    size?: number;
}): import("react").JSX.Element;
