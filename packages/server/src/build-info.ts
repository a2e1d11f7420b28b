import { readFileSync } from 'node:fs';

/** What the build recorded (scripts/build-info.mjs) and the version it was built as: `/actuator/info`, releases. */
export interface BuildInfo {
  version: string;
  /** When the build was made (UTC, to the second); the start-up time when no build recorded it. */
  time: string;
  git: { branch: string; commit: { id: string; time: string | null } };
}

const UNKNOWN_GIT: BuildInfo['git'] = { branch: 'unknown', commit: { id: 'unknown', time: null } };

/**
 * Read once at start-up. The paths hold from `src/` (tests, `npm run dev`) and from `dist/` alike: both sit in
 * packages/server, whose `dist/build-info.json` the build writes; the version is the repository's package.json.
 */
export function readBuildInfo(): BuildInfo {
  const json = (path: string): unknown => {
    try {
      return JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
    } catch {
      return null;
    }
  };
  const pkg = json('../../../package.json') as { version?: string } | null;
  const recorded = json('../dist/build-info.json') as Partial<Pick<BuildInfo, 'time' | 'git'>> | null;
  return {
    version: pkg?.version ?? 'unknown',
    time: recorded?.time ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    git: recorded?.git ?? UNKNOWN_GIT,
  };
}
