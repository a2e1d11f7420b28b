import type { UserDto } from '@quire/api';
import { LIBRARY_DEFAULTS, type LibraryDto } from '../api/libraries';

export function buildUser(overrides: Partial<UserDto> = {}): UserDto {
  return {
    id: 'user-1',
    email: 'reader@example.org',
    roles: ['USER', 'FILE_DOWNLOAD', 'PAGE_STREAMING'],
    sharedAllLibraries: true,
    sharedLibrariesIds: [],
    labelsAllow: [],
    labelsExclude: [],
    ...overrides,
  };
}

export const buildAdmin = (overrides: Partial<UserDto> = {}) =>
  buildUser({
    id: 'admin-1',
    email: 'admin@example.org',
    roles: ['ADMIN', 'USER', 'FILE_DOWNLOAD', 'PAGE_STREAMING'],
    ...overrides,
  });

export function buildLibrary(overrides: Partial<LibraryDto> = {}): LibraryDto {
  return {
    ...LIBRARY_DEFAULTS,
    scanDirectoryExclusions: [...LIBRARY_DEFAULTS.scanDirectoryExclusions],
    id: 'lib-1',
    name: 'Comics',
    root: '/data/comics',
    oneshotsDirectory: null,
    unavailable: false,
    ...overrides,
  };
}
