// File-system primitives the stores and the CLI share: atomic writes that
// never clobber unless asked, path-safety checks, and cheap head reads for
// discovery. Errors are TxcriptError (CONFLICT, UNSAFE_PATH, IO).
import { randomBytes } from "node:crypto";
import { constants, promises as fs } from "node:fs";
import * as path from "node:path";
import { TxcriptError } from "./errors.js";

export interface WriteAtomicOptions {
  /** Replace an existing file. Without it an existing target is a CONFLICT. */
  overwrite?: boolean;
  /** When set, the target must resolve inside this directory. */
  root?: string;
  harness?: string;
}

/**
 * Write `data` to `target` atomically: a temporary file in the same
 * directory, flushed, then linked (no-clobber: two racing writers cannot
 * both win) or renamed (overwrite). A failure midway removes the temporary
 * file and leaves no partial target. A symlink target is refused.
 */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: WriteAtomicOptions = {},
): Promise<void> {
  const harness = options.harness === undefined ? {} : { harness: options.harness };
  if (options.root !== undefined) assertInside(options.root, target, options.harness);
  const existing = await fs.lstat(target).catch(() => undefined);
  if (existing?.isSymbolicLink()) {
    throw new TxcriptError("UNSAFE_PATH", "refusing to write through a symbolic link", {
      ...harness,
      location: { file: target },
    });
  }
  if (existing && !options.overwrite) {
    throw new TxcriptError("CONFLICT", "the target already exists", {
      ...harness,
      location: { file: target },
      hint: "pass --force (or overwrite: true) to replace it",
    });
  }
  const directory = path.dirname(target);
  const temporary = path.join(
    directory,
    `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
  );
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      0o644,
    );
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    if (options.overwrite) {
      await fs.rename(temporary, target);
    } else {
      // link(2) fails with EEXIST when another writer got there first.
      await fs.link(temporary, target);
      await fs.unlink(temporary);
    }
  } catch (cause) {
    await handle?.close().catch(() => undefined);
    await fs.unlink(temporary).catch(() => undefined);
    if (TxcriptError.isInstance(cause)) throw cause;
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "EEXIST") {
      throw new TxcriptError("CONFLICT", "another writer created the target first", {
        ...harness,
        location: { file: target },
        cause,
      });
    }
    throw ioError(cause, target, "write", options.harness);
  }
}

/** Throw UNSAFE_PATH unless `target` is strictly inside `root` (lexically). */
export function assertInside(root: string, target: string, harness?: string): void {
  const relative = path.relative(path.resolve(root), path.resolve(target));
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) {
    throw new TxcriptError("UNSAFE_PATH", "path escapes the store", {
      ...(harness === undefined ? {} : { harness }),
      location: { file: target },
      hint: `expected a file inside ${root}`,
    });
  }
}

/** Map a Node file-system error onto TxcriptError (NOT_FOUND, IO). */
export function ioError(
  cause: unknown,
  file: string,
  action: "read" | "write" | "delete" | "list",
  harness?: string,
): TxcriptError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const base = { ...(harness === undefined ? {} : { harness }), location: { file }, cause };
  if (code === "ENOENT") return new TxcriptError("NOT_FOUND", "no such file", base);
  const reason =
    code === "EACCES" || code === "EPERM"
      ? "permission denied"
      : code === "ENOSPC"
        ? "no space left on device"
        : code === "EISDIR"
          ? "is a directory"
          : ((cause as Error | undefined)?.message ?? "failed");
  return new TxcriptError("IO", `cannot ${action}: ${reason}`, base);
}

/** Read a whole text file as UTF-8, with errors as TxcriptError; refuses files past `maxBytes`. */
export async function readTextFile(
  file: string,
  options: { harness?: string; maxBytes?: number } = {},
): Promise<string> {
  try {
    if (options.maxBytes !== undefined) {
      const stat = await fs.stat(file);
      if (stat.size > options.maxBytes) {
        throw new TxcriptError(
          "TOO_LARGE",
          `file is ${stat.size} bytes, past the limit of ${options.maxBytes}`,
          {
            ...(options.harness === undefined ? {} : { harness: options.harness }),
            location: { file },
          },
        );
      }
    }
    return await fs.readFile(file, "utf8");
  } catch (cause) {
    if (TxcriptError.isInstance(cause)) throw cause;
    throw ioError(cause, file, "read", options.harness);
  }
}

/** The first `bytes` bytes of a file as text (a cut multi-byte character at the end is dropped). */
export async function readHead(file: string, bytes: number): Promise<string> {
  const handle = await fs.open(file, "r");
  try {
    // Never more than the file holds: listing reads thousands of small files.
    const size = Math.min(bytes, (await handle.stat()).size);
    const buffer = Buffer.allocUnsafe(size);
    const { bytesRead } = await handle.read(buffer, 0, size, 0);
    return new TextDecoder("utf-8", { fatal: false })
      .decode(buffer.subarray(0, bytesRead))
      .replace(/\uFFFD$/, "");
  } finally {
    await handle.close();
  }
}
