// What a store's files looked like when it was last discovered: every
// directory under the store's root (recursively) with its modification
// time, and every file with its size and modification time. Comparing a
// snapshot with the disk costs one stat per entry and reads no file, so a
// search with nothing changed asks no store to discover its sessions.
//
// Why it is enough: a file created, deleted or renamed anywhere under the
// root changes the modification time of its directory, and every directory
// is in the snapshot (empty ones too), so the set of entries cannot change
// unseen; a file written in place changes its own size or time. The
// snapshot is taken before discovery, so a change made while the store is
// being read shows up as a difference next time. A root that is one file
// (a database) is watched with its `-wal` beside it.
import * as fs from "node:fs";
import * as path from "node:path";

/** Directories and files of one store's root, as [path, mtimeMs] and [path, size, mtimeMs]. */
export interface Snapshot {
  root: string;
  /** The store's `sessionPaths` the snapshot was taken over (absent: the whole root). */
  paths?: string[];
  /** The root is missing: it must still be missing. */
  missing?: true;
  dirs: [string, number][];
  files: [string, number, number][];
}

/** Whether a snapshot was taken over these session paths (Store.sessionPaths). */
export function samePaths(
  taken: readonly string[] | undefined,
  wanted: readonly string[] | undefined,
): boolean {
  if (taken === undefined || wanted === undefined) return taken === wanted;
  return taken.length === wanted.length && taken.every((entry, i) => entry === wanted[i]);
}

/**
 * What changed since a snapshot: nothing, only these files in place, or more (discover again).
 * With files, `snapshot` is the one compared with those files' entries as they were statted: what
 * a refresh that reads them then saves (the stats taken before the reads, so a file written after
 * its stat differs next time; every other entry was found as recorded), without a second walk.
 */
export type Difference =
  | { kind: "none" }
  | { kind: "files"; files: string[]; snapshot: Snapshot }
  | { kind: "more" };

/** Entries beyond which a root is not snapshotted (it is discovered every time instead). */
export const maxSnapshotEntries = 50_000;

const quiet = { throwIfNoEntry: false } as const;

// A missing entry answers undefined without an exception thrown and caught
// (ENOENT); other errors (ENOTDIR, EACCES) still throw, and count as missing.
function statOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file, quiet);
  } catch {
    return undefined;
  }
}

/**
 * Walk `root` (only where `paths` reach, when given: Store.sessionPaths); undefined when it holds
 * more than `limit` entries or cannot be read whole.
 */
export function takeSnapshot(
  root: string,
  limit = maxSnapshotEntries,
  paths?: readonly string[],
): Snapshot | undefined {
  const top = statOf(root);
  const over = paths === undefined ? {} : { paths: [...paths] };
  if (top === undefined) return { root, ...over, missing: true, dirs: [], files: [] };
  const snapshot: Snapshot = { root, ...over, dirs: [], files: [] };
  if (paths !== undefined && top.isDirectory()) {
    const patterns = paths.map((entry) => entry.split("/").filter((part) => part !== ""));
    return walkPatterns(snapshot, top, patterns, limit) ? snapshot : undefined;
  }
  if (!top.isDirectory()) {
    for (const file of [root, `${root}-wal`]) {
      const stat = statOf(file);
      if (stat !== undefined) snapshot.files.push([file, stat.size, stat.mtimeMs]);
    }
    // The -wal appearing later changes the directory, which is not watched: record its absence.
    snapshot.dirs.push([path.dirname(root), statOf(path.dirname(root))?.mtimeMs ?? -1]);
    return snapshot;
  }
  const pending = [root];
  snapshot.dirs.push([root, top.mtimeMs]);
  let entries = 1;
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return undefined;
    }
    for (const entry of names) {
      entries += 1;
      if (entries > limit) return undefined;
      const full = path.join(dir, entry.name);
      // Links are followed as discovery would; a dangling one is recorded as it stands.
      const stat = statOf(full);
      if (stat === undefined) snapshot.files.push([full, -1, -1]);
      else if (stat.isDirectory()) {
        snapshot.dirs.push([full, stat.mtimeMs]);
        pending.push(full);
      } else snapshot.files.push([full, stat.size, stat.mtimeMs]);
    }
  }
  return snapshot;
}

/**
 * The patterns that go on below an entry named `name`: each whose first segment is that name
 * or `*`, without it; a `**` stays `**` (it takes everything below). An empty pattern: the entry
 * itself is wanted.
 */
function below(patterns: readonly string[][], name: string): string[][] {
  const out: string[][] = [];
  for (const pattern of patterns) {
    const [first] = pattern;
    if (first === "**") out.push(pattern);
    else if (first === "*" || first === name) out.push(pattern.slice(1));
  }
  return out;
}

/**
 * Record what `patterns` reach under the snapshot's root. A directory whose entries a `*` or
 * `**` lists is recorded with its time (an entry added or removed there changes it) and each
 * entry that can match is visited; in a directory only named by its patterns, each name is
 * statted and recorded, as missing when it is (its appearing is then a change), and the
 * directory's own time is not (a log created beside `sessions/` changes nothing here).
 */
function walkPatterns(
  snapshot: Snapshot,
  top: fs.Stats,
  patterns: string[][],
  limit: number,
): boolean {
  let entries = 1;
  const visit = (dir: string, stat: fs.Stats, wanted: string[][]): boolean => {
    // A pattern that ends here names this directory: its time is recorded (its entries' set).
    const going = wanted.filter((pattern) => pattern.length > 0);
    const listed = going.some((pattern) => pattern[0] === "*" || pattern[0] === "**");
    if (listed || going.length < wanted.length) snapshot.dirs.push([dir, stat.mtimeMs]);
    if (going.length === 0) return true;
    if (listed) {
      let names: fs.Dirent[];
      try {
        names = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return false;
      }
      for (const entry of names) {
        const next = below(going, entry.name);
        if (next.length > 0 && !record(path.join(dir, entry.name), next)) return false;
      }
      return true;
    }
    const named = new Set(going.map((pattern) => pattern[0] as string));
    for (const name of [...named].sort())
      if (!record(path.join(dir, name), below(going, name))) return false;
    return true;
  };
  const record = (full: string, wanted: string[][]): boolean => {
    entries += 1;
    if (entries > limit) return false;
    const stat = statOf(full);
    if (stat === undefined) snapshot.files.push([full, -1, -1]);
    else if (stat.isDirectory()) return visit(full, stat, wanted);
    else snapshot.files.push([full, stat.size, stat.mtimeMs]);
    return true;
  };
  return visit(snapshot.root, top, patterns);
}

/** Compare a snapshot with the disk now. */
export function compareSnapshot(snapshot: Snapshot): Difference {
  if (snapshot.missing)
    return statOf(snapshot.root) === undefined ? { kind: "none" } : { kind: "more" };
  // Indexed loops, and the changed list made only when a file changed: ~5,000 entries per query.
  const { dirs } = snapshot;
  for (let i = 0; i < dirs.length; i += 1) {
    const entry = dirs[i] as [string, number];
    if ((statOf(entry[0])?.mtimeMs ?? -1) !== entry[1]) return { kind: "more" };
  }
  let files: string[] | undefined;
  let now: [string, number, number][] | undefined;
  const entries = snapshot.files;
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i] as [string, number, number];
    const stat = statOf(entry[0]);
    if (stat === undefined) {
      if (entry[1] !== -1) return { kind: "more" };
    } else if (stat.size !== entry[1] || stat.mtimeMs !== entry[2]) {
      files ??= [];
      now ??= entries.slice();
      files.push(entry[0]);
      now[i] = [entry[0], stat.size, stat.mtimeMs];
    }
  }
  return files === undefined || now === undefined
    ? { kind: "none" }
    : { kind: "files", files, snapshot: { ...snapshot, files: now } };
}

/**
 * A snapshot as the index stores it: columns, each path relative to the root (`""`: the root),
 * so the text is ~30 % shorter than the tuples and parses into five arrays instead of one per
 * entry (every search reads and compares it). A snapshot with a path outside its root (a root
 * that is one file: its directory) is stored as the tuples themselves, which read back too.
 */
interface Stored {
  v: 2;
  root: string;
  paths?: string[];
  missing?: true;
  dirs: string[];
  dirTimes: number[];
  files: string[];
  sizes: number[];
  times: number[];
}

function prefixOf(root: string): string {
  return root.endsWith(path.sep) ? root : `${root}${path.sep}`;
}

/** The text the index stores for a snapshot (read back by decodeSnapshot and compareStored). */
export function encodeSnapshot(snapshot: Snapshot): string {
  const { root } = snapshot;
  const prefix = prefixOf(root);
  let outside = false;
  const relative = (file: string): string => {
    if (file === root) return "";
    if (file.startsWith(prefix) && file.length > prefix.length) return file.slice(prefix.length);
    outside = true;
    return file;
  };
  const stored: Stored = {
    v: 2,
    root,
    ...(snapshot.paths === undefined ? {} : { paths: snapshot.paths }),
    ...(snapshot.missing ? { missing: true as const } : {}),
    dirs: snapshot.dirs.map((entry) => relative(entry[0])),
    dirTimes: snapshot.dirs.map((entry) => entry[1]),
    files: snapshot.files.map((entry) => relative(entry[0])),
    sizes: snapshot.files.map((entry) => entry[1]),
    times: snapshot.files.map((entry) => entry[2]),
  };
  return JSON.stringify(outside ? snapshot : stored);
}

/** A stored snapshot's text, parsed (either form): what compareStored compares. */
export interface StoredSnapshot {
  readonly root: string;
  readonly paths: string[] | undefined;
  readonly value: Stored | Snapshot;
}

/** Parse a stored snapshot's text. */
export function readStored(data: string): StoredSnapshot {
  const value = JSON.parse(data) as Stored | Snapshot;
  return { root: value.root, paths: value.paths, value };
}

function isStored(value: Stored | Snapshot): value is Stored {
  return (value as Stored).v === 2;
}

function toSnapshot(value: Stored | Snapshot): Snapshot {
  if (!isStored(value)) return value;
  const prefix = prefixOf(value.root);
  const full = (name: string) => (name === "" ? value.root : `${prefix}${name}`);
  return {
    root: value.root,
    ...(value.paths === undefined ? {} : { paths: value.paths }),
    ...(value.missing ? { missing: true as const } : {}),
    dirs: value.dirs.map((dir, i) => [full(dir), value.dirTimes[i] as number]),
    files: value.files.map((file, i) => [
      full(file),
      value.sizes[i] as number,
      value.times[i] as number,
    ]),
  };
}

/**
 * The snapshot a stored text holds (either form). Its entries are made when first read: a
 * refresh decodes every store's snapshot, and one whose comparison it recalls reads only the root.
 */
export function decodeSnapshot(data: string): Snapshot {
  const { value } = readStored(data);
  if (!isStored(value)) return value;
  let whole: Snapshot | undefined;
  const entries = () => {
    whole ??= toSnapshot(value);
    return whole;
  };
  return {
    root: value.root,
    ...(value.paths === undefined ? {} : { paths: value.paths }),
    ...(value.missing ? { missing: true as const } : {}),
    get dirs() {
      return entries().dirs;
    },
    set dirs(dirs) {
      entries().dirs = dirs;
    },
    get files() {
      return entries().files;
    },
    set files(files) {
      entries().files = files;
    },
  };
}

/**
 * compareSnapshot(decodeSnapshot(data)), stat by stat on the stored columns, building the
 * snapshot's entries only when a file changed (the search fast path compares ~7,000 entries).
 */
export function compareStored(stored: StoredSnapshot): Difference {
  const { value } = stored;
  if (!isStored(value)) return compareSnapshot(value);
  const { root } = value;
  if (value.missing) return statOf(root) === undefined ? { kind: "none" } : { kind: "more" };
  const prefix = prefixOf(root);
  const { dirs, dirTimes, files, sizes, times } = value;
  for (let i = 0; i < dirs.length; i += 1) {
    const name = dirs[i] as string;
    const stat = statOf(name === "" ? root : `${prefix}${name}`);
    if ((stat?.mtimeMs ?? -1) !== dirTimes[i]) return { kind: "more" };
  }
  let changed: number[] | undefined;
  let now: [number, number][] | undefined;
  for (let i = 0; i < files.length; i += 1) {
    const name = files[i] as string;
    const stat = statOf(name === "" ? root : `${prefix}${name}`);
    if (stat === undefined) {
      if (sizes[i] !== -1) return { kind: "more" };
    } else if (stat.size !== sizes[i] || stat.mtimeMs !== times[i]) {
      changed ??= [];
      now ??= [];
      changed.push(i);
      now.push([stat.size, stat.mtimeMs]);
    }
  }
  if (changed === undefined || now === undefined) return { kind: "none" };
  const snapshot = toSnapshot(value);
  const list: string[] = [];
  for (const [k, i] of changed.entries()) {
    const entry = snapshot.files[i] as [string, number, number];
    const [size, mtimeMs] = now[k] as [number, number];
    snapshot.files[i] = [entry[0], size, mtimeMs];
    list.push(entry[0]);
  }
  return { kind: "files", files: list, snapshot };
}

/**
 * Comparisons made moments ago in this process (the CLI's search fast path compares every
 * store before it falls back to the full command, which refreshes): a refresh right after takes
 * them instead of making every stat again. One use each, within `recallWithinMs`, and only for
 * the very snapshot compared (the same saved text: another process that refreshed in between
 * saved another). Taking one is answering as of that comparison: a change made after it is a
 * change made after the refresh, found by the next one (what is saved is what was statted then).
 */
const recent = new Map<string, { data: string; difference: Difference; at: number }>();
const recallWithinMs = 2_000;

export function rememberDifference(
  index: string,
  harness: string,
  data: string,
  difference: Difference,
): void {
  recent.set(`${index}\u0000${harness}`, { data, difference, at: performance.now() });
}

export function recallDifference(
  index: string,
  harness: string,
  data: string,
): Difference | undefined {
  const key = `${index}\u0000${harness}`;
  const entry = recent.get(key);
  if (entry === undefined) return undefined;
  recent.delete(key);
  return entry.data === data && performance.now() - entry.at <= recallWithinMs
    ? entry.difference
    : undefined;
}
