// File-system primitives the stores and the CLI share: atomic writes that
// never clobber unless asked, path-safety checks, and cheap head reads for
// discovery. Errors are TxcriptError (CONFLICT, UNSAFE_PATH, IO).
import { constants, promises as fs, type Stats, unlinkSync } from "node:fs";
import * as path from "node:path";
import { TxcriptError } from "./errors.js";
import { nodeCrypto } from "./node-builtins.js";
import type { HeadLast } from "./stream.js";

export interface WriteAtomicOptions {
  /** Replace an existing file. Without it an existing target is a CONFLICT. */
  overwrite?: boolean;
  /** When set, the target must resolve inside this directory. */
  root?: string;
  /** The new file's mode (default 0o644). */
  mode?: number;
  harness?: string;
}

/**
 * What `writeFileAtomic` writes: one string or buffer, text in slices that is never one string,
 * or text whose first piece comes last (HeadLast: written before the rest).
 */
export type AtomicContent = string | Uint8Array | Iterable<string> | HeadLast;

function isHeadLast(content: AtomicContent): content is HeadLast {
  return typeof content === "object" && "rest" in content && "head" in content;
}

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

async function writeContent(
  handle: fs.FileHandle,
  content: string | Uint8Array | Iterable<string>,
): Promise<void> {
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
 * HeadLast content: the rest into a spool file beside the target (a temporary file of its own,
 * removed in every case), then the head and the spool's bytes into `handle`.
 */
async function writeHeadLast(
  handle: fs.FileHandle,
  content: HeadLast,
  spool: string,
  mode: number,
): Promise<void> {
  trackTemporary(spool);
  let spooled: fs.FileHandle | undefined;
  try {
    spooled = await fs.open(spool, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, mode);
    await writeContent(spooled, content.rest);
    let head: string;
    try {
      head = content.head();
    } catch (error) {
      throw new ProducerError(error);
    }
    await writeContent(handle, [head]);
    const buffer = Buffer.allocUnsafe(bufferBytes);
    for (let position = 0; ; ) {
      const { bytesRead } = await spooled.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      await writeAll(handle, buffer.subarray(0, bytesRead));
      position += bytesRead;
    }
  } finally {
    await spooled?.close().catch(() => undefined);
    await fs.unlink(spool).catch(() => undefined);
    untrackTemporary(spool);
  }
}

/** The longest file name most file systems take (NAME_MAX), in bytes. */
const nameMax = 255;

/**
 * The part of a temporary file's name that comes from its target:
 * `.<target name>.` when the whole temporary name fits NAME_MAX, else the
 * name cut (on a character boundary) and a hash of the whole, so a long
 * target name that fits on its own still gets a temporary file.
 */
export function temporaryPrefix(base: string): string {
  // `.<pid>.<12 hex>.tmp`: a pid has at most 7 digits on Linux (pid_max 4194304).
  const suffixBytes = ".4194304.0123456789ab.tmp".length;
  if (Buffer.byteLength(`.${base}.`) + suffixBytes <= nameMax) return `.${base}.`;
  const hash = nodeCrypto().createHash("sha256").update(base).digest("hex").slice(0, 16);
  let cut = base;
  while (Buffer.byteLength(`.${cut}~${hash}.`) + suffixBytes > nameMax)
    cut = cut.slice(0, cut.length - 1);
  // Never end on half a surrogate pair.
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `.${cut}~${hash}.`;
}

/** Six hex digits from Math.random. */
const hex6 = () =>
  Math.floor(Math.random() * 0x1000000)
    .toString(16)
    .padStart(6, "0");

/**
 * `<prefix><pid>.<12 hex>.tmp` beside the target. The name needs to be new,
 * not secret: it is opened with O_EXCL, so a name already there (by chance or
 * planted) fails the write instead of being written through. So Math.random
 * serves, and node:crypto (several milliseconds to load) is not loaded by
 * every write (packages/cli/test/start-up.test.ts).
 */
function temporaryName(target: string): string {
  const prefix = temporaryPrefix(path.basename(target));
  return path.join(path.dirname(target), `${prefix}${process.pid}.${hex6()}${hex6()}.tmp`);
}

/**
 * Temporary files being written now. A SIGINT, SIGTERM or SIGHUP (and an
 * exit mid-write) removes them before the process ends; kill -9 cannot be
 * caught, and a later write of the same target removes what it left
 * (removeStaleTemporaries).
 */
const liveTemporaries = new Set<string>();
const cleanupSignals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

function removeLiveTemporaries(): void {
  for (const file of liveTemporaries) {
    try {
      unlinkSync(file);
    } catch {
      // Already gone (renamed into place, or removed by the failing write).
    }
  }
  liveTemporaries.clear();
}

function onCleanupSignal(signal: NodeJS.Signals): void {
  removeLiveTemporaries();
  stopCleanup();
  // End as the signal would have ended the process, unless someone else handles it.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function startCleanup(): void {
  if (liveTemporaries.size > 0) return;
  for (const signal of cleanupSignals) process.on(signal, onCleanupSignal);
  process.on("exit", removeLiveTemporaries);
}

function stopCleanup(): void {
  for (const signal of cleanupSignals) process.off(signal, onCleanupSignal);
  process.off("exit", removeLiveTemporaries);
}

function trackTemporary(file: string): void {
  startCleanup();
  liveTemporaries.add(file);
}

function untrackTemporary(file: string): void {
  liveTemporaries.delete(file);
  if (liveTemporaries.size === 0) stopCleanup();
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Names ending in .tmp in each directory listed for stale temporary files, by directory. */
const listed = new Map<string, Promise<string[]>>();

/**
 * Remove the temporary files an earlier write of `target` left when its
 * process was killed outright (kill -9, a crash): those of this target's
 * name whose process no longer runs on this machine (from one listing of
 * the directory a process). Best effort.
 */
export async function removeStaleTemporaries(target: string): Promise<string[]> {
  const prefix = temporaryPrefix(path.basename(target));
  const directory = path.dirname(target);
  const removed: string[] = [];
  // Each directory is listed once a process: a batch writing thousands of
  // files into one directory does not list it thousands of times.
  let listing = listed.get(directory);
  if (listing === undefined) {
    listing = fs.readdir(directory).then(
      (names) => names.filter((name) => name.endsWith(".tmp")),
      () => [] as string[],
    );
    listed.set(directory, listing);
  }
  for (const name of await listing) {
    if (!name.startsWith(prefix)) continue;
    const match = /^(\d+)\.[0-9a-f]{12}\.tmp$/.exec(name.slice(prefix.length));
    if (match === null) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || processRuns(pid)) continue;
    const file = path.join(directory, name);
    const stat = await fs.lstat(file).catch(() => undefined);
    if (!stat?.isFile()) continue;
    await fs.unlink(file).then(
      () => removed.push(file),
      () => undefined,
    );
  }
  return removed;
}

function specialKind(stat: Stats): string | undefined {
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSocket()) return "a socket";
  return undefined;
}

/**
 * Write `content` to `target` atomically: a temporary file in the same
 * directory, flushed, then linked (no-clobber: two racing writers cannot
 * both win) or renamed (overwrite). A failure midway removes the temporary
 * file and leaves no partial target. A symlink target is refused. Content
 * given as slices is iterated while writing; an error thrown by the
 * iterable is rethrown as it is. HeadLast content's rest goes to a second
 * temporary file first, then the head and that file's bytes are written.
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
  const special = existing === undefined ? undefined : specialKind(existing);
  if (special !== undefined) {
    // Renaming over it would replace the device or pipe itself (as root, /dev/null).
    throw new TxcriptError("UNSAFE_PATH", `refusing to replace ${special}, even with --force`, {
      ...harness,
      location: { file: target },
      hint: "write to a regular file, or to stdout (-o -) and redirect that",
    });
  }
  if (existing?.isDirectory()) {
    throw new TxcriptError("IO", "cannot write: is a directory", {
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
  await removeStaleTemporaries(target);
  const temporary = temporaryName(target);
  let handle: fs.FileHandle | undefined;
  trackTemporary(temporary);
  try {
    handle = await fs.open(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      options.mode ?? 0o644,
    );
    if (isHeadLast(content))
      await writeHeadLast(handle, content, temporaryName(target), options.mode ?? 0o644);
    else await writeContent(handle, content);
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
  } finally {
    untrackTemporary(temporary);
  }
}

/**
 * Make `directory` and every directory between `root` and it, never
 * following a symbolic link: a component that exists as a link or as
 * something other than a directory is refused (UNSAFE_PATH), and a failure
 * is an IO error naming the path. `root` itself is made as given. Returns
 * whether `directory` was made by this call.
 */
export async function makeDirectoryInside(
  root: string,
  directory: string,
  harness?: string,
): Promise<boolean> {
  const base = path.resolve(root);
  const relative = path.relative(base, path.resolve(directory));
  if (relative.startsWith("..") || path.isAbsolute(relative))
    assertInside(root, directory, harness);
  await makeDirectory(base, harness);
  let current = base;
  let created = false;
  for (const part of relative === "" ? [] : relative.split(path.sep)) {
    current = path.join(current, part);
    created = await fs.mkdir(current).then(
      () => true,
      (cause: NodeJS.ErrnoException) => {
        if (cause.code !== "EEXIST") throw ioError(cause, current, "write", harness);
        return false;
      },
    );
    if (created) continue;
    const stat = await fs.lstat(current).catch((cause: unknown) => {
      throw ioError(cause, current, "write", harness);
    });
    if (stat.isSymbolicLink() || !stat.isDirectory())
      throw new TxcriptError(
        "UNSAFE_PATH",
        stat.isSymbolicLink()
          ? "refusing to write through a symbolic link"
          : "expected a directory here",
        {
          ...(harness === undefined ? {} : { harness }),
          location: { file: current },
          hint: `nothing was written under ${current}`,
        },
      );
  }
  return created;
}

/** `mkdir -p directory`, with a failure as an IO error naming the path (never a raw EACCES). */
export async function makeDirectory(directory: string, harness?: string): Promise<void> {
  try {
    await fs.mkdir(directory, { recursive: true });
  } catch (cause) {
    throw ioError(cause, directory, "write", harness);
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
      : code === "EROFS"
        ? "read-only file system"
        : code === "ENAMETOOLONG"
          ? "file name too long"
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
    // One decode of the whole buffer, not `readFile(file, "utf8")`: on
    // Node 20 that decodes chunk by chunk into a string of many pieces,
    // which the first regex or JSON.parse then copies into one (~30 ms and
    // a slower parse for 10 MB; bench/NOTES.md, 2026-12-07). Same text:
    // both decode UTF-8 with U+FFFD for invalid bytes and keep a BOM.
    return (await fs.readFile(file)).toString("utf8");
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
