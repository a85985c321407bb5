// Where the store lives and the checks that keep its folder ours: created
// 0700, refused when it is a symbolic link, owned by someone else or writable
// by group or others; files in it created 0600 without following links.
import { closeSync, constants, lstatSync, mkdirSync, openSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, parse, resolve, sep } from 'node:path';
import { StoreUnavailableError } from './errors.js';

/** `$XDG_CACHE_HOME/squeeze`, else `~/.cache/squeeze` (XDG ignores a relative value): the CLI's and the plugin's default. */
export function defaultStoreDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const cache = env.XDG_CACHE_HOME;
  if (cache && isAbsolute(cache)) return join(cache, 'squeeze');
  return join(env.HOME || homedir(), '.cache', 'squeeze');
}

const unsafe = (path: string, why: string) =>
  new StoreUnavailableError(
    'unsafe',
    `store ${path} ${why}; squeeze keeps originals only in a folder that only you can change`,
  );

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Creates the missing folders of `dir` one by one (0700), never looping on a file system that refuses. */
function makeDirs(dir: string): void {
  const { root } = parse(dir);
  let path = root;
  for (const part of dir.slice(root.length).split(sep).filter(Boolean)) {
    path = join(path, part);
    if (lstatOrNull(path) !== null) continue;
    try {
      mkdirSync(path, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

function checkOwner(path: string, stat: Stats): void {
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw unsafe(path, `is owned by uid ${stat.uid}, not by you (uid ${uid})`);
}

/** Makes sure the store folder exists and is safe; returns its absolute path. */
export function secureStoreDir(dir: string): string {
  const path = resolve(dir);
  try {
    makeDirs(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const reason =
      code === 'EROFS' || code === 'EACCES' || code === 'EPERM'
        ? 'read-only'
        : code === 'ENOSPC'
          ? 'full'
          : 'cannot-open';
    throw new StoreUnavailableError(reason, `cannot create store folder ${path} (${(error as Error).message})`, {
      cause: error,
    });
  }
  let stat: Stats;
  try {
    stat = lstatSync(path);
  } catch (error) {
    throw new StoreUnavailableError(
      'cannot-open',
      `cannot inspect store folder ${path} (${(error as Error).message})`,
      { cause: error },
    );
  }
  if (stat.isSymbolicLink()) throw unsafe(path, 'is a symbolic link');
  if (!stat.isDirectory()) throw unsafe(path, 'is not a folder');
  checkOwner(path, stat);
  if ((stat.mode & 0o022) !== 0) {
    throw unsafe(path, `is writable by group or others (mode ${(stat.mode & 0o777).toString(8)}; chmod 700 it)`);
  }
  return path;
}

/** `base`, or `base-2`, `base-3`…: the first name no set-aside file (nor its WAL or index) has, so two set-asides in one millisecond never overwrite each other. */
export function unusedName(base: string): string {
  const taken = (name: string) => ['', '-wal', '-shm'].some((suffix) => lstatOrNull(name + suffix) !== null);
  let name = base;
  for (let n = 2; taken(name); n++) name = `${base}-${n}`;
  return name;
}

/** Refuses a link or a foreign or non-regular file at `path`; false when there is none. */
export function checkStoreFile(path: string): boolean {
  let stat: Stats | null;
  try {
    stat = lstatOrNull(path);
  } catch (error) {
    throw new StoreUnavailableError('cannot-open', `cannot inspect ${path} (${(error as Error).message})`, {
      cause: error,
    });
  }
  if (stat === null) return false;
  if (stat.isSymbolicLink()) throw unsafe(path, 'is a symbolic link');
  if (!stat.isFile()) throw unsafe(path, 'is not a regular file');
  checkOwner(path, stat);
  return true;
}

/** Creates `path` empty and 0600 unless it exists, without following a link planted there. */
export function createStoreFile(path: string): void {
  if (checkStoreFile(path)) return;
  try {
    closeSync(openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600));
  } catch (error) {
    // Another process created it first: check what is there now.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    checkStoreFile(path);
  }
}
