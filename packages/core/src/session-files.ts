// The file work every session store repeats: a bounded tail read beside
// readHead, an atomic no-clobber save into a directory made on demand (the
// file's mtime then set when the harness lists sessions by it), a delete, a
// sorted list of project directories, the regular files of directories
// (never a link or a FIFO), the one file of an id (NOT_FOUND, AMBIGUOUS),
// the CONFLICT of a save whose id is stored elsewhere, and the error for an
// id that cannot name a file. Errors are TxcriptError naming the file, as
// in files.ts.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import type { SkippedFile } from "./codec.js";
import { TxcriptError } from "./errors.js";
import { ioError, writeFileAtomic } from "./files.js";

/**
 * The end of a file that a head of `headBytes` does not reach, at most
 * `headBytes` long, as text ("" when the file is no longer than the head).
 * The first line of it is usually cut; callers read it leniently.
 */
export async function readTail(file: string, size: number, headBytes: number): Promise<string> {
  if (size <= headBytes) return "";
  const handle = await fs.open(file, "r");
  try {
    const length = Math.min(headBytes, size - headBytes);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    return buffer.toString("utf8");
  } finally {
    await handle.close();
  }
}

export interface SaveSessionFileOptions {
  harness: string;
  /** The store's root: the target must be inside it. */
  root: string;
  /** Replace an existing file (default: CONFLICT). */
  overwrite?: boolean;
  /** The directory made first (default: the target's). */
  directory?: string;
  /** Set as the file's access and modification time after writing (a failure to set it is ignored). */
  mtime?: Date;
}

/** Write a session file: its directory made, then writeFileAtomic (atomic, no clobber unless asked). */
export async function saveSessionFile(
  target: string,
  text: string,
  options: SaveSessionFileOptions,
): Promise<void> {
  const { harness } = options;
  const directory = options.directory ?? path.dirname(target);
  try {
    await fs.mkdir(directory, { recursive: true });
  } catch (cause) {
    throw ioError(cause, directory, "write", harness);
  }
  await writeFileAtomic(target, text, {
    overwrite: options.overwrite === true,
    root: options.root,
    harness,
  });
  if (options.mtime !== undefined)
    await fs.utimes(target, options.mtime, options.mtime).catch(() => undefined);
}

/** Delete one session file, errors as TxcriptError. */
export async function deleteSessionFile(file: string, harness: string): Promise<void> {
  try {
    await fs.unlink(file);
  } catch (cause) {
    throw ioError(cause, file, "delete", harness);
  }
}

/** The directories directly in `root`, sorted; none when `root` does not exist. */
export async function listDirectories(root: string, harness: string): Promise<string[]> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await fs.readdir(root, { withFileTypes: true });
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw ioError(cause, root, "list", harness);
  }
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(root, entry.name))
    .sort();
}

/** UNSAFE_PATH for an id that cannot name a file: `not a <what>: "<id>"` (default what: "session id"). */
export function unsafeIdError(
  id: string,
  options: { harness: string; hint?: string; what?: string },
): TxcriptError {
  return new TxcriptError(
    "UNSAFE_PATH",
    `not a ${options.what ?? "session id"}: ${JSON.stringify(id.slice(0, 80))}`,
    {
      harness: options.harness,
      ...(options.hint === undefined ? {} : { hint: options.hint }),
    },
  );
}

/** Whether `file` is a regular file itself (lstat: a link, a FIFO, a directory or nothing is not). */
export async function isRegularFile(file: string): Promise<boolean> {
  try {
    return (await fs.lstat(file)).isFile();
  } catch {
    return false;
  }
}

/**
 * The regular files directly in each of `directories` whose names `accept`
 * takes, sorted. An entry's own type is used (never a link's target): a
 * link, a FIFO or a directory is not listed. A missing directory has none;
 * one that cannot be listed is reported to `onSkip` and passed over.
 */
export async function regularFiles(
  directories: readonly string[],
  accept: (name: string) => boolean,
  options: { harness: string; onSkip?: ((skipped: SkippedFile) => void) | undefined },
): Promise<string[]> {
  const files: string[] = [];
  for (const directory of directories) {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await fs.readdir(directory, { withFileTypes: true });
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === "ENOENT") continue;
      options.onSkip?.({
        path: directory,
        reason: ioError(cause, directory, "list", options.harness).message,
      });
      continue;
    }
    for (const entry of entries)
      if (entry.isFile() && accept(entry.name)) files.push(path.join(directory, entry.name));
  }
  return files.sort();
}

/**
 * Delete the regular files directly in `directory` whose names `accept`
 * takes (regularFiles: never a link, a FIFO or a directory), then the
 * directory itself when that leaves it empty. The files deleted, sorted.
 * For a session's side files (its subagents'), deleted with it.
 */
export async function deleteFilesIn(
  directory: string,
  accept: (name: string) => boolean,
  harness: string,
): Promise<string[]> {
  const files = await regularFiles([directory], accept, { harness });
  for (const file of files) await deleteSessionFile(file, harness);
  await fs.rmdir(directory).catch(() => undefined);
  return files;
}

export interface OneSessionFileOptions {
  id: string;
  harness: string;
  /** The harness's display name: "no <name> session <id>". */
  name: string;
  /** Where it was looked for (the NOT_FOUND error's file). */
  store: string;
  /** What two copies are in: "session <id> is in <n> <places>". */
  places: string;
}

/** The one file of session `id` among `files`: NOT_FOUND when none, AMBIGUOUS (listing them) when more. */
export function oneSessionFile(files: readonly string[], options: OneSessionFileOptions): string {
  const { id, harness } = options;
  if (files.length === 0)
    throw new TxcriptError("NOT_FOUND", `no ${options.name} session ${id}`, {
      harness,
      location: { file: options.store },
    });
  if (files.length > 1)
    throw new TxcriptError("AMBIGUOUS", `session ${id} is in ${files.length} ${options.places}`, {
      harness,
      location: { file: files[0] as string },
      hint: files.join(", "),
    });
  return files[0] as string;
}

/**
 * The no-clobber rule of a save: CONFLICT when session `id` is already
 * stored in a file other than `target` (`found`, the store's files of that
 * id). The target itself is left to saveSessionFile's own no-clobber write.
 */
export function refuseCopyElsewhere(
  found: readonly string[],
  target: string,
  options: { id: string; harness: string },
): void {
  const elsewhere = found.filter((file) => file !== target);
  if (elsewhere.length > 0)
    throw new TxcriptError("CONFLICT", `session ${options.id} already exists`, {
      harness: options.harness,
      location: { file: elsewhere[0] as string },
      hint: "pass overwrite: true to write a second copy",
    });
}
