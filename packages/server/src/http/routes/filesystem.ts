import { readdir, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, parse } from 'node:path';
import type { PathDto } from '@quire/api';
import type { filesystemOperations } from '@quire/api/operations';
import { badRequest } from '../../domain/errors.js';
import type { Handlers, OperationIdsOf } from '../operations.js';

const byName = (a: PathDto, b: PathDto) => {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
};

/**
 * `POST /api/v1/filesystem` (api.md §9.6): the admin's folder picker. The path must be absolute and is
 * resolved (symbolic links, `..`) before listing; a file lists its folder; hidden entries are skipped.
 */
export function filesystemHandlers(): Handlers<OperationIdsOf<typeof filesystemOperations>> {
  return {
    getDirectoryListing: async (req) => {
      const requested = req.body?.path ?? '';
      const showFiles = req.body?.showFiles ?? false;
      if (requested === '') {
        const root = parse(process.cwd()).root;
        return { directories: [{ type: 'directory' as const, name: root, path: root }], files: [] };
      }
      if (!isAbsolute(requested)) throw badRequest('Path must be absolute');
      let dir: string;
      try {
        dir = await realpath(requested);
        if (!(await stat(dir)).isDirectory()) dir = dirname(dir);
      } catch {
        throw badRequest('Path does not exist');
      }
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        throw badRequest('Path does not exist');
      }
      const directories: PathDto[] = [];
      const files: PathDto[] = [];
      for (const e of entries) {
        if (e.name.startsWith('.')) continue;
        const path = join(dir, e.name);
        let isDir = e.isDirectory();
        let isFile = e.isFile();
        if (e.isSymbolicLink()) {
          const s = await stat(path).catch(() => null);
          isDir = s?.isDirectory() ?? false;
          isFile = s?.isFile() ?? false;
        }
        if (isDir) directories.push({ type: 'directory', name: e.name, path });
        else if (isFile && showFiles) files.push({ type: 'file', name: e.name, path });
      }
      const parent = dir === parse(dir).root ? '' : dirname(dir);
      return { parent, directories: directories.sort(byName), files: files.sort(byName) };
    },
  };
}
