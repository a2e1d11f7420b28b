/**
 * A file or folder path: read left to right in any language (in a right-to-left screen too, where "/a/b.cbz" would
 * otherwise come out as "a/b.cbz/"), isolated from the text around it, and breaking anywhere on a phone.
 */
export function FilePath({ path }: { path: string }) {
  return (
    <bdi dir="ltr" style={{ wordBreak: 'break-all' }}>
      {path}
    </bdi>
  );
}
