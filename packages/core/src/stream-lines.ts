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

/** A source of lines that can be read again from the start (two-pass readers call it twice). */
export type LineSource = () => Iterable<string>;

function tooLong(shown: string, line: number, limit: number, harness?: string): TxcriptError {
  return new TxcriptError("TOO_LARGE", `line ${line} is longer than ${limit} bytes`, {
    ...(harness === undefined ? {} : { harness }),
    location: { file: shown, line },
    hint: "a session line that long is not one txcript can read; is this a session file?",
  });
}

/** The lines of `file`, read synchronously slice by slice (see the module comment). */
export function* readFileLines(file: string, options: LineReadOptions = {}): Generator<string> {
  const limit = options.maxLineBytes ?? defaultMaxLineBytes;
  const shown = options.shown ?? file;
  const chunk = Buffer.allocUnsafe(options.chunkBytes ?? 2 ** 20);
  let descriptor: number;
  try {
    descriptor = fs.openSync(file, "r");
  } catch (cause) {
    throw ioError(cause, shown, "read", options.harness);
  }
  try {
    // The bytes of the line being read that came in earlier slices.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let number = 0;
    let any = false;
    for (;;) {
      let read: number;
      try {
        read = fs.readSync(descriptor, chunk, 0, chunk.length, null);
      } catch (cause) {
        throw ioError(cause, shown, "read", options.harness);
      }
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
