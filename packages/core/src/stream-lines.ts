// Lines of a JSON-lines file with bounded memory: the file is read in
// slices of `chunkBytes`, and each line is decoded on its own, so a 2 GB
// session is never one string. The lines are those the whole-text codecs
// see: the text split on "\n" (a "\r" stays on its line), without the empty
// piece after a final newline, and none at all for an empty file. A line
// longer than `maxLineBytes` is a TOO_LARGE error naming the file and line,
// not a string Node cannot hold.
import * as fs from "node:fs";
import { TxcriptError } from "./errors.js";
import { ioError } from "./files.js";

/** The longest line read by default: 256 MiB, well below V8's longest string. */
export const defaultMaxLineBytes = 256 * 2 ** 20;

export interface LineReadOptions {
  /** Longest line, in bytes, before TOO_LARGE (default 256 MiB). */
  maxLineBytes?: number;
  /** Bytes read at a time (default 1 MiB). */
  chunkBytes?: number;
  /** The name errors give the file (default: its path). */
  shown?: string;
  /** Harness named in errors. */
  harness?: string;
}

/**
 * A source of lines that can be read again from the start (two-pass readers
 * call it twice). A source may also give `blocks`: the same lines, several
 * at a time, each string whole lines joined by "\n" (fileLineSource).
 */
export type LineSource = (() => Iterable<string>) & { readonly blocks?: () => Iterable<string> };

function tooLong(shown: string, line: number, limit: number, harness?: string): TxcriptError {
  return new TxcriptError("TOO_LARGE", `line ${line} is longer than ${limit} bytes`, {
    ...(harness === undefined ? {} : { harness }),
    location: { file: shown, line },
    hint: "a session line that long is not one txcript can read; is this a session file?",
  });
}

/** `file` opened for reading, errors as TxcriptError naming it `shown`. */
function openLines(file: string, shown: string, harness?: string): number {
  try {
    return fs.openSync(file, "r");
  } catch (cause) {
    throw ioError(cause, shown, "read", harness);
  }
}

/** The next bytes of the file into `buffer` from `offset` to its end; how many (0 at the end). */
function readSlice(
  descriptor: number,
  buffer: Buffer,
  offset: number,
  shown: string,
  harness?: string,
): number {
  try {
    return fs.readSync(descriptor, buffer, offset, buffer.length - offset, null);
  } catch (cause) {
    throw ioError(cause, shown, "read", harness);
  }
}

/** The lines of `file`, read synchronously slice by slice (see the module comment). */
export function* readFileLines(file: string, options: LineReadOptions = {}): Generator<string> {
  const limit = options.maxLineBytes ?? defaultMaxLineBytes;
  const shown = options.shown ?? file;
  const chunk = Buffer.allocUnsafe(options.chunkBytes ?? 2 ** 20);
  const descriptor = openLines(file, shown, options.harness);
  try {
    // The bytes of the line being read that came in earlier slices.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let number = 0;
    let any = false;
    for (;;) {
      const read = readSlice(descriptor, chunk, 0, shown, options.harness);
      if (read === 0) break;
      any = true;
      let start = 0;
      for (;;) {
        const end = chunk.indexOf(10, start);
        if (end === -1 || end >= read) break;
        number += 1;
        if (pendingBytes + end - start > limit)
          throw tooLong(shown, number, limit, options.harness);
        if (pendingBytes === 0) yield chunk.toString("utf8", start, end);
        else {
          pending.push(Buffer.from(chunk.subarray(start, end)));
          yield Buffer.concat(pending).toString("utf8");
          pending = [];
          pendingBytes = 0;
        }
        start = end + 1;
      }
      if (start < read) {
        pendingBytes += read - start;
        if (pendingBytes > limit) throw tooLong(shown, number + 1, limit, options.harness);
        pending.push(Buffer.from(chunk.subarray(start, read)));
      }
    }
    // The last line, when the file does not end with a newline.
    if (any && pendingBytes > 0) yield Buffer.concat(pending).toString("utf8");
  } finally {
    fs.closeSync(descriptor);
  }
}

/**
 * The lines of `file` as readFileLines gives them, a block at a time: each
 * string is one or more whole lines joined by "\n" (a block ends where a
 * slice's last line does), so a reader that does not need a string per
 * line (walkJsonObjectLines) decodes and walks about `chunkBytes` at once.
 * Splitting every block on "\n" gives readFileLines's lines; the same
 * TOO_LARGE for a line past `maxLineBytes`.
 *
 * The buffer always starts at a line's start: the unfinished line at a
 * slice's end moves to its front and the next read fills in behind it, so
 * no block is joined from pieces, and the buffer grows only for a line
 * longer than it. The default slice, 64 KiB, keeps each block's string
 * small enough for V8's young generation: 1 MiB strings each took fresh
 * pages from the kernel (bench/NOTES.md, 2026-12-07).
 */
export function* readFileLineBlocks(
  file: string,
  options: LineReadOptions = {},
): Generator<string> {
  const limit = options.maxLineBytes ?? defaultMaxLineBytes;
  const shown = options.shown ?? file;
  let buffer = Buffer.allocUnsafe(options.chunkBytes ?? 2 ** 16);
  const descriptor = openLines(file, shown, options.harness);
  const tooLongAt = (offset: number) =>
    tooLong(shown, linesBefore(descriptor, offset) + 1, limit, options.harness);
  try {
    // buffer[0, held) is the start of a line not yet ended; `base` is its offset in the file.
    let held = 0;
    let base = 0;
    for (;;) {
      if (held === buffer.length) {
        // A line longer than the buffer: a larger one, the line moved over.
        const larger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(larger, 0, 0, held);
        buffer = larger;
      }
      const read = readSlice(descriptor, buffer, held, shown, options.harness);
      if (read === 0) break;
      const filled = held + read;
      const last = buffer.lastIndexOf(10, filled - 1);
      if (last === -1) {
        held = filled;
        if (held > limit) throw tooLongAt(base);
        continue;
      }
      // Every line that ends here must fit: the first, and under a limit
      // smaller than what was read, each of the others.
      let start = 0;
      for (
        let end = buffer.indexOf(10);
        end !== -1 && end <= last;
        end = buffer.indexOf(10, start)
      ) {
        if (end - start > limit) throw tooLongAt(base + start);
        start = end + 1;
        if (limit >= read) break;
      }
      yield buffer.toString("utf8", 0, last);
      held = filled - last - 1;
      if (held > limit) throw tooLongAt(base + last + 1);
      buffer.copy(buffer, 0, last + 1, filled);
      base += last + 1;
    }
    // The last line, when the file does not end with a newline.
    if (held > 0) yield buffer.toString("utf8", 0, held);
  } finally {
    fs.closeSync(descriptor);
  }
}

/** How many line feeds the first `bytes` bytes of an open file hold (for an error's line number). */
function linesBefore(descriptor: number, bytes: number): number {
  const buffer = Buffer.allocUnsafe(Math.min(bytes, 2 ** 20) || 1);
  let count = 0;
  for (let position = 0; position < bytes; ) {
    const read = fs.readSync(
      descriptor,
      buffer,
      0,
      Math.min(buffer.length, bytes - position),
      position,
    );
    if (read === 0) break;
    for (let at = buffer.indexOf(10); at !== -1 && at < read; at = buffer.indexOf(10, at + 1))
      count += 1;
    position += read;
  }
  return count;
}

/**
 * A LineSource over a file: readFileLines, and as `blocks` the same lines
 * a block at a time (readFileLineBlocks), for readers that take blocks.
 */
export function fileLineSource(file: string, options: LineReadOptions = {}): LineSource {
  return Object.assign(() => readFileLines(file, options), {
    blocks: () => readFileLineBlocks(file, options),
  });
}

/** A source's lines in blocks when it gives them (fileLineSource), else one by one: for a reader that takes either. */
export function linesOrBlocks(source: LineSource): Iterable<string> {
  return source.blocks?.() ?? source();
}

/**
 * textLines in blocks of whole lines joined by "\n", each ending at the
 * first line end `size` characters or more past its start (as readFileLineBlocks cuts a file).
 */
export function* textLineBlocks(text: string, size = 2 ** 16): Generator<string> {
  if (text === "") return;
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  let start = 0;
  for (;;) {
    const end = body.indexOf("\n", Math.min(start + size, body.length));
    if (end === -1) {
      yield body.slice(start);
      return;
    }
    yield body.slice(start, end);
    start = end + 1;
  }
}

/** A LineSource over a text held whole: textLines, and textLineBlocks of `size` as its blocks. */
export function textLineSource(text: string, size?: number): LineSource {
  return Object.assign(() => textLines(text), { blocks: () => textLineBlocks(text, size) });
}

/** The same lines from a text held whole (tests, and inputs already read). */
export function* textLines(text: string): Generator<string> {
  if (text === "") return;
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  let start = 0;
  for (;;) {
    const end = body.indexOf("\n", start);
    if (end === -1) {
      yield body.slice(start);
      return;
    }
    yield body.slice(start, end);
    start = end + 1;
  }
}
