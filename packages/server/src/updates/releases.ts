import { readFileSync } from 'node:fs';

export interface Release {
  version: string;
  /** ISO-8601 UTC. */
  releaseDate: string;
  url: string;
  latest: boolean;
  preRelease: boolean;
  /** Markdown. */
  description: string;
}

/** `## [1.2.0] - 2026-11-28` (Keep a Changelog); `## [Unreleased]` has no date and is not a release. */
const HEADING = /^## \[([^\]]+)\] - (\d{4}-\d{2}-\d{2})\s*$/;
/** `[1.2.0]: https://…`, the link references at the end of the file. */
const LINK = /^\[([^\]]+)\]:\s*(https?:\/\/\S+)\s*$/;

/**
 * The releases of a changelog, newest first as the file lists them; the first is the latest (as Komga flags the
 * first of GitHub's list). Semantic versioning: a hyphen starts a pre-release tag (1.0.0-beta.1).
 */
export function parseChangelog(markdown: string): Release[] {
  const lines = markdown.split(/\r?\n/);
  const links = new Map<string, string>();
  for (const line of lines) {
    const link = LINK.exec(line);
    if (link) links.set(link[1]!, link[2]!);
  }
  const releases: Release[] = [];
  let open: { version: string; date: string; body: string[] } | null = null;
  const close = () => {
    if (!open) return;
    releases.push({
      version: open.version,
      releaseDate: `${open.date}T00:00:00Z`,
      url: links.get(open.version) ?? '',
      latest: releases.length === 0,
      preRelease: open.version.includes('-'),
      description: open.body.join('\n').trim(),
    });
    open = null;
  };
  for (const line of lines) {
    if (line.startsWith('## ')) {
      close();
      const heading = HEADING.exec(line);
      if (heading) open = { version: heading[1]!, date: heading[2]!, body: [] };
    } else if (open && !LINK.test(line)) {
      open.body.push(line);
    }
  }
  close();
  return releases;
}

/**
 * Quire's releases (api.md §9.3), read once at start-up from the CHANGELOG.md the repository keeps at its root
 * (the same place from `src/` and `dist/`). Without it, the one release this build is, without notes.
 */
export function readReleases(build: { version: string; date: string }): Release[] {
  let markdown: string;
  try {
    markdown = readFileSync(new URL('../../../../CHANGELOG.md', import.meta.url), 'utf8');
  } catch {
    markdown = '';
  }
  const releases = parseChangelog(markdown);
  if (releases.length > 0) return releases;
  return [
    {
      version: build.version,
      releaseDate: build.date,
      url: '',
      latest: true,
      preRelease: build.version.includes('-'),
      description: '',
    },
  ];
}
