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
  /** The root is missing: it must still be missing. */
  missing?: true;
  dirs: [string, number][];
  files: [string, number, number][];
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

/** Walk `root`; undefined when it holds more than `limit` entries or cannot be read whole. */
export function takeSnapshot(root: string, limit = maxSnapshotEntries): Snapshot | undefined {
  const top = statOf(root);
  if (top === undefined) return { root, missing: true, dirs: [], files: [] };
  const snapshot: Snapshot = { root, dirs: [], files: [] };
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
