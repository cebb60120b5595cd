// An atomic file write fed slice by slice: core's writeFileAtomic contract
// (a temporary file beside the target, flushed, then linked — no clobber —
// or renamed with overwrite; a symlink target refused; nothing partial left
// on failure) for text that is never one string. Used by `convert -o`.
import { randomBytes } from "node:crypto";
import { constants, promises as fs } from "node:fs";
import * as path from "node:path";
import { ioError, TxcriptError } from "@txcript/core";

/** Characters encoded at a time: a whole-document slice is never copied into one buffer. */
const pieceLength = 1 << 20;

/** `text` in pieces of about `pieceLength`, never splitting a surrogate pair. */
export function* pieces(text: string, length = pieceLength): Generator<string> {
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

/** Bytes gathered before a write(2). */
const bufferBytes = 1 << 20;

async function writeAll(handle: fs.FileHandle, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
    written += bytesWritten;
  }
}

/** Carries an error thrown while producing a slice past the write-error mapping. */
class MakerError {
  constructor(readonly error: unknown) {}
}

/**
 * Write the slices, in order, as the file `target`. Iterates `slices` while
 * writing: an error from it removes the temporary file and is rethrown as is.
 */
export async function writeSlicesAtomic(
  target: string,
  slices: Iterable<string>,
  options: { overwrite?: boolean } = {},
): Promise<void> {
  const existing = await fs.lstat(target).catch(() => undefined);
  if (existing?.isSymbolicLink()) {
    throw new TxcriptError("UNSAFE_PATH", "refusing to write through a symbolic link", {
      location: { file: target },
    });
  }
  if (existing && !options.overwrite) {
    throw new TxcriptError("CONFLICT", "the target already exists", {
      location: { file: target },
      hint: "pass --force (or overwrite: true) to replace it",
    });
  }
  const temporary = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
  );
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      0o644,
    );
    const buffer = Buffer.allocUnsafe(bufferBytes);
    let used = 0;
    const iterator = slices[Symbol.iterator]();
    for (;;) {
      // A failure making the text is the maker's error, not a write error.
      let next: IteratorResult<string>;
      try {
        next = iterator.next();
      } catch (error) {
        throw new MakerError(error);
      }
      if (next.done) break;
      const text = next.value;
      // Small slices are gathered into one reused buffer; a big one is encoded a piece at a time.
      if (text.length * 3 <= buffer.length - used) used += buffer.write(text, used, "utf8");
      else {
        await writeAll(handle, buffer.subarray(0, used));
        used = 0;
        if (text.length * 3 <= buffer.length) used = buffer.write(text, 0, "utf8");
        else for (const piece of pieces(text)) await writeAll(handle, Buffer.from(piece, "utf8"));
      }
    }
    await writeAll(handle, buffer.subarray(0, used));
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
    if (cause instanceof MakerError) throw cause.error;
    if (TxcriptError.isInstance(cause)) throw cause;
    if ((cause as NodeJS.ErrnoException).code === "EEXIST") {
      throw new TxcriptError("CONFLICT", "another writer created the target first", {
        location: { file: target },
        cause,
      });
    }
    throw ioError(cause, target, "write");
  }
}
