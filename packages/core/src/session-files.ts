// The file work every session store repeats: a bounded tail read beside
// readHead, an atomic no-clobber save into a directory made on demand (the
// file's mtime then set when the harness lists sessions by it), a delete, a
// sorted list of project directories, and the error for an id that cannot
// name a file. Errors are TxcriptError naming the file, as in files.ts.
import { promises as fs } from "node:fs";
import * as path from "node:path";
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
