// The two ends of a session file, read the way a store's listing needs them:
// synchronously (open, fstat, one or two preads, close: a few system calls,
// several times cheaper per file than promise round trips through libuv's
// thread pool), into one scratch buffer reused from file to file (a fresh
// 64 KiB buffer per file costs page faults and collector work that grow a
// listing's cost with the sizes of its files), and only from a regular file
// (never a FIFO, a device, or a link, even one swapped in after the
// directory was listed). Errors are TxcriptError naming the file.
import * as fsSync from "node:fs";
import { TxcriptError } from "./errors.js";
import { ioError } from "./files.js";

export interface FileEnds {
  size: number;
  mtime: Date;
  /**
   * The lines of the first `headBytes` bytes (as `text.split("\n")` gives
   * them: the last one possibly cut, a multi-byte character cut at its end
   * dropped, as readHead does); of the whole file when the two ends meet
   * (size ≤ headBytes + tailBytes), so that no line is cut between them.
   */
  head: string[];
  /**
   * The lines of the last `tailBytes` bytes of a file longer than headBytes +
   * tailBytes ([] otherwise): then `readTail(file, size, headBytes)` split at
   * "\n" when `tailBytes` equals `headBytes`. The first one is usually cut;
   * read them leniently.
   */
  tail: string[];
}

/** Opening never blocks (a FIFO is refused, not waited on) and never follows a link. */
const openFlags =
  fsSync.constants.O_RDONLY |
  (fsSync.constants.O_NONBLOCK ?? 0) |
  (fsSync.constants.O_NOFOLLOW ?? 0);
let scratch = Buffer.allocUnsafe(0);

/**
 * The lines of scratch[start, end), each decoded on its own: a "\n" byte is
 * never part of a multi-byte character, so this is the text split at "\n",
 * but no string is longer than its line (V8 puts a string past 128 KiB in
 * its large-object space, which makes decoding a 200 KiB head whole some
 * twenty times slower than decoding it a line at a time).
 */
function linesOf(start: number, end: number): string[] {
  const lines: string[] = [];
  const bytes = scratch.subarray(start, end);
  let from = 0;
  for (let newline = bytes.indexOf(10); newline !== -1; newline = bytes.indexOf(10, from)) {
    lines.push(bytes.toString("utf8", from, newline));
    from = newline + 1;
  }
  lines.push(bytes.toString("utf8", from, bytes.length));
  return lines;
}

function readAt(descriptor: number, offset: number, length: number, position: number): number {
  let done = 0;
  while (done < length) {
    const read = fsSync.readSync(
      descriptor,
      scratch,
      offset + done,
      length - done,
      position + done,
    );
    if (read === 0) break;
    done += read;
  }
  return done;
}

/**
 * The size, mtime, head and tail of `file` (see FileEnds), read synchronously.
 * Throws TxcriptError: IO for a file that is not regular or cannot be read,
 * NOT_FOUND when it is gone.
 */
export function readFileEnds(
  file: string,
  headBytes: number,
  tailBytes = 0,
  harness?: string,
): FileEnds {
  let descriptor: number | undefined;
  try {
    descriptor = fsSync.openSync(file, openFlags);
    const stat = fsSync.fstatSync(descriptor);
    if (!stat.isFile())
      throw new TxcriptError("IO", "cannot read: not a regular file", {
        ...(harness === undefined ? {} : { harness }),
        location: { file },
      });
    const size = stat.size;
    const meet = size <= headBytes + tailBytes;
    const headLength = meet ? size : headBytes;
    const tailLength = meet ? 0 : tailBytes;
    if (scratch.length < headLength + tailLength)
      scratch = Buffer.allocUnsafe(headLength + tailLength);
    const headRead = readAt(descriptor, 0, headLength, 0);
    const tailRead =
      tailLength === 0 ? 0 : readAt(descriptor, headLength, tailLength, size - tailLength);
    const head = linesOf(0, headRead);
    const last = head.length - 1;
    head[last] = (head[last] as string).replace(/\uFFFD$/, "");
    const tail = tailRead === 0 ? [] : linesOf(headLength, headLength + tailRead);
    return { size, mtime: stat.mtime, head, tail };
  } catch (cause) {
    if (TxcriptError.isInstance(cause)) throw cause;
    throw ioError(cause, file, "read", harness);
  } finally {
    if (descriptor !== undefined)
      try {
        fsSync.closeSync(descriptor);
      } catch {
        // Nothing was written through it: a failed close loses nothing.
      }
  }
}

/**
 * For a listing that reads synchronously: a function to await between files
 * that gives the event loop a turn (setImmediate) once every `sliceMs`
 * milliseconds, and otherwise returns at once.
 */
export function eventLoopTurns(sliceMs = 8): () => Promise<void> | undefined {
  let sliceEnd = performance.now() + sliceMs;
  return () => {
    if (performance.now() < sliceEnd) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        sliceEnd = performance.now() + sliceMs;
        resolve();
      }),
    );
  };
}
