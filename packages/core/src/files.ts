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

/** What `writeFileAtomic` writes: one string or buffer, or text in slices that is never one string. */
export type AtomicContent = string | Uint8Array | Iterable<string>;

/** Characters encoded at a time, so a whole-document slice is never copied into one buffer. */
const pieceLength = 1 << 20;
/** Bytes gathered before a write(2). */
const bufferBytes = 1 << 20;

/** `text` in pieces of about `length` characters, never splitting a surrogate pair. */
export function* textPieces(text: string, length = pieceLength): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + length, text.length);
    const last = text.charCodeAt(end - 1);
    // A high surrogate last: leave it for the next piece (or take its pair, when alone).
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += end - 1 > start ? -1 : 1;
    yield text.slice(start, end);
    start = end;
  }
}

async function writeAll(handle: fs.FileHandle, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
    written += bytesWritten;
  }
}

/** Carries an error thrown while producing a slice past the write-error mapping. */
class ProducerError {
  constructor(readonly error: unknown) {}
}

async function writeContent(handle: fs.FileHandle, content: AtomicContent): Promise<void> {
  if (typeof content === "string" || content instanceof Uint8Array) {
    await handle.writeFile(content);
    return;
  }
  // Small slices are gathered into one reused buffer; a big one is encoded a piece at a time.
  const buffer = Buffer.allocUnsafe(bufferBytes);
  let used = 0;
  const iterator = content[Symbol.iterator]();
  for (;;) {
    let next: IteratorResult<string>;
    try {
      next = iterator.next();
    } catch (error) {
      // A failure making the text is the producer's error, not a write error.
      throw new ProducerError(error);
    }
    if (next.done) break;
    const text = next.value;
    if (text.length * 3 <= buffer.length - used) used += buffer.write(text, used, "utf8");
    else {
      await writeAll(handle, buffer.subarray(0, used));
      used = 0;
      if (text.length * 3 <= buffer.length) used = buffer.write(text, 0, "utf8");
      else for (const piece of textPieces(text)) await writeAll(handle, Buffer.from(piece, "utf8"));
    }
  }
  await writeAll(handle, buffer.subarray(0, used));
}

/**
 * Write `content` to `target` atomically: a temporary file in the same
 * directory, flushed, then linked (no-clobber: two racing writers cannot
 * both win) or renamed (overwrite). A failure midway removes the temporary
 * file and leaves no partial target. A symlink target is refused. Content
 * given as slices is iterated while writing; an error thrown by the
 * iterable is rethrown as it is.
 */
export async function writeFileAtomic(
  target: string,
  content: AtomicContent,
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
    await writeContent(handle, content);
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
    if (cause instanceof ProducerError) throw cause.error;
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
