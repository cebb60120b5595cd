// The input size limit: every command reads a whole session into one string
// before parsing it, and V8's longest string is about 512 MiB of UTF-16 code
// units, so inputs past the limit are refused up front (a file by its size,
// stdin while it is read) with TOO_LARGE instead of failing inside Node.
// `view -` of a live stream-json pipe is not limited: it never holds it whole,
// nor is a `convert` that streams (stream-convert.ts: a long file whose two
// sides read and write line by line).
import { promises as fs } from "node:fs";
import type { Readable } from "node:stream";
import { readTextFile, TxcriptError } from "@txcript/core";

/** 500 MiB: below V8's ~512 MiB string limit, whatever the text's characters. */
export const defaultMaxInputBytes = 500 * 2 ** 20;

const variable = "TXCRIPT_MAX_INPUT_BYTES";

/**
 * A size in bytes set by an environment variable: its whole number (`least` at the least), or
 * `fallback` when unset or blank; anything else is a USAGE error naming the variable.
 */
function byteSetting(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  least: 0 | 1,
): number {
  const value = env[name];
  if (value === undefined || value.trim() === "") return fallback;
  const bytes = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes < least)
    throw new TxcriptError(
      "USAGE",
      `${name} must be a whole number of bytes${least === 1 ? " above 0" : ""}`,
      { hint: `it is ${JSON.stringify(value)}; unset it for the default of ${fallback}` },
    );
  return bytes;
}

/** The limit in bytes: TXCRIPT_MAX_INPUT_BYTES when set, else the default. */
export function maxInputBytes(env: Record<string, string | undefined>): number {
  return byteSetting(env, variable, defaultMaxInputBytes, 1);
}

function hint(limit: number): string {
  return limit === defaultMaxInputBytes
    ? `500 MiB; ${variable} sets another, but Node cannot hold much past 512 MiB as one string`
    : `set by ${variable}`;
}

/** The error for an input past the limit; `size` when known (a file), else "more than". */
export function tooLarge(file: string, limit: number, size?: number): TxcriptError {
  const what =
    size === undefined
      ? `input is more than ${limit} bytes, past the limit`
      : `file is ${size} bytes, past the limit of ${limit}`;
  return new TxcriptError("TOO_LARGE", what, { location: { file }, hint: hint(limit) });
}

/**
 * Read a whole file as text after checking its size against the limit;
 * `shown` is the name errors give (what the user typed).
 */
export async function readLimitedFile(
  file: string,
  shown: string,
  limit: number,
): Promise<{ text: string; mtime: Date }> {
  const stat = await fs.stat(file).catch(() => undefined);
  if (stat !== undefined && stat.size > limit) throw tooLarge(shown, limit, stat.size);
  const text = await readTextFile(file);
  return { text, mtime: stat?.mtime ?? new Date() };
}

/**
 * Read a whole stream as UTF-8 text, counting bytes as they arrive and
 * refusing (before joining them) once more than `limit` came, `head`
 * included (what was read before to sniff the format, put back in front).
 */
export async function readAllLimited(
  stream: Readable,
  limit: number,
  head: Buffer = Buffer.alloc(0),
): Promise<string> {
  const chunks: Buffer[] = [head];
  let total = head.length;
  const refuse = () => {
    stream.destroy();
    return tooLarge("<stdin>", limit);
  };
  if (total > limit) throw refuse();
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    total += buffer.length;
    if (total > limit) throw refuse();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** 64 MiB: below it the whole path is as fast and holds little. */
export const defaultStreamMinBytes = 64 * 2 ** 20;

const streamVariable = "TXCRIPT_STREAM_MIN_BYTES";

/** How long an input must be to stream: TXCRIPT_STREAM_MIN_BYTES when set (0 streams every file), else 64 MiB. */
export function streamMinBytes(env: Record<string, string | undefined>): number {
  return byteSetting(env, streamVariable, defaultStreamMinBytes, 0);
}
