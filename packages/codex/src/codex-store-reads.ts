// The bounded reads the Codex store lists and links sessions with: a
// rollout's head (session meta, first prompt) and mtime (its last event), its
// first line (a subagent's parent), a zstd rollout's decompressed head, and
// whole-file reads of plain or zstd rollouts. Lenient: cut lines skip.
import * as fsSync from "node:fs";
import { promises as fs } from "node:fs";
import { ioError, isJsonObject, type JsonObject } from "@txcript/core";
import { injectedSource } from "./codex-items.js";
import { harness } from "./codex-schema.js";
import { rolloutText, zstdHead } from "./codex-zstd.js";

/**
 * How far a plain rollout's head is read while listing: 4 KiB first (an
 * early session's meta and first prompt fit), then up to 32 KiB and 128 KiB
 * only while the meta line or the first prompt is not complete in what was
 * read (Codex 0.1xx meta lines carry 15–22 KB of instructions).
 */
export const headSteps = [4_096, 32_768, 131_072] as const;
export const headBytes = 131_072;
/** The end of a rollout `save` reads its last event time from. */
export const tailBytes = 65_536;
/** Compressed bytes read at a time from a `.jsonl.zst` head. */
const zstdChunkBytes = 16_384;
/** Opening never blocks, so a FIFO that replaced a rollout is refused, not waited on. */
const openFlags = fsSync.constants.O_RDONLY | (fsSync.constants.O_NONBLOCK ?? 0);
/** Reused by every head read (the reads are synchronous, so never shared). */
const headBuffer = Buffer.allocUnsafe(headBytes);
export type Loose = Record<string, unknown>;

export function own(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && Object.hasOwn(value, key)
    ? (value as Loose)[key]
    : undefined;
}

function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** The JSON object a line holds, else undefined (a cut line at the edge of a head or tail). */
function lineObject(line: string): Loose | undefined {
  if (line === "") return undefined;
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Loose;
  } catch {
    // Not JSON: skipped, as Codex skips it.
  }
  return undefined;
}

/** The JSON objects of complete lines, from the start (or, with `reverse`, from the end), lazily. */
export function* parsedLines(text: string, reverse = false): Generator<Loose> {
  const pieces = text.split("\n");
  if (reverse) pieces.reverse();
  for (const line of pieces) {
    const value = lineObject(line);
    if (value !== undefined) yield value;
  }
}

/**
 * The JSON objects of the lines of the plain rollout open at `descriptor`,
 * read into the head buffer step by step (`headSteps`), each step only when
 * the lines read so far are used up and never past 128 KiB; each line is
 * decoded only when it is reached. A line cut by the last step is dropped.
 */
function* headLines(descriptor: number): Generator<Loose> {
  let have = 0;
  let start = 0;
  let ended = false;
  for (const step of headSteps) {
    const read = fsSync.readSync(descriptor, headBuffer, have, step - have, have);
    ended = read < step - have;
    have += read;
    const bytes = headBuffer.subarray(0, have);
    for (let end = bytes.indexOf(10, start); end !== -1; end = bytes.indexOf(10, start)) {
      const value = lineObject(bytes.toString("utf8", start, end));
      start = end + 1;
      if (value !== undefined) yield value;
    }
    if (ended) break;
  }
  // The last line of a file that does not end in a newline.
  if (ended && start < have) {
    const value = lineObject(headBuffer.toString("utf8", start, have));
    if (value !== undefined) yield value;
  }
}

export interface Peek {
  id?: string;
  cwd?: string;
  prompt?: string;
}

/** Session id, cwd and first prompt from a rollout's head, read leniently; undefined when it is no rollout. */
export function peekHead(text: string): Peek | undefined {
  return peekLines(parsedLines(text));
}

/** peekHead over parsed lines: it stops at the first prompt, so the lines after it are never decoded. */
function peekLines(lines: Iterator<Loose>): Peek | undefined {
  const first = lines.next().value;
  if (first === undefined) return undefined;
  const meta = own(first, "type") === "session_meta" ? own(first, "payload") : first;
  const id = own(meta, "id");
  if (
    typeof id !== "string" ||
    (own(first, "type") !== "session_meta" && typeof own(meta, "timestamp") !== "string")
  )
    return undefined;
  const result: Peek = { id };
  const cwd = own(meta, "cwd");
  if (typeof cwd === "string" && cwd !== "") result.cwd = cwd;
  for (let next = lines.next(); next.done !== true; next = lines.next()) {
    const line = next.value;
    const payload = own(line, "payload") ?? line;
    if (own(line, "type") === "event_msg" && own(payload, "type") === "user_message") {
      const message = own(payload, "message");
      if (typeof message === "string" && message.trim() !== "") {
        result.prompt = oneLine(message);
        break;
      }
    }
    if (own(payload, "type") === "message" && own(payload, "role") === "user") {
      const content = own(payload, "content");
      const text = Array.isArray(content) ? own(content[0], "text") : undefined;
      if (typeof text === "string" && text.trim() !== "" && injectedSource(text) === undefined) {
        result.prompt = oneLine(text);
        break;
      }
    }
  }
  return result;
}

/** The time of the last line with a timestamp in a rollout's tail. */
export function lastEventTime(text: string): string | undefined {
  for (const line of parsedLines(text, true)) {
    const stamp = own(line, "timestamp");
    if (typeof stamp === "string" && Number.isFinite(Date.parse(stamp)))
      return new Date(Date.parse(stamp)).toISOString();
  }
  return undefined;
}

/** What listing learned from one rollout: its head and mtime, or why it is skipped. */
export type Probe = { seen: Peek | undefined; mtime: Date } | { skip: string };

/**
 * The head and mtime of a rollout, read synchronously (a few system calls,
 * several times cheaper than promise round trips through the thread pool):
 * of a plain rollout a 4 KiB head, growing to 32 and 128 KiB only while the
 * meta line or the first prompt is not in it (`headLines`); of a
 * `.jsonl.zst` 16 KiB of compressed bytes at a time until 128 KiB are
 * decompressed. The last event's time is
 * the mtime: Codex appends every event as it happens and lists the mtime as
 * the update time, and `CodexStore.save` sets it to the last event's time,
 * so nothing is read from the end of the file.
 */
export function probeRollout(file: string): Probe {
  let descriptor: number | undefined;
  try {
    descriptor = fsSync.openSync(file, openFlags);
    const stat = fsSync.fstatSync(descriptor);
    if (!stat.isFile()) return { skip: "not a regular file" };
    if (file.endsWith(".zst")) return { seen: peekHead(zstdHeadOf(descriptor)), mtime: stat.mtime };
    const seen = peekLines(headLines(descriptor));
    return { seen, mtime: stat.mtime };
  } catch (cause) {
    return { skip: ioError(cause, file, "read", harness).message };
  } finally {
    if (descriptor !== undefined)
      try {
        fsSync.closeSync(descriptor);
      } catch {
        // Nothing was written through it: a failed close loses nothing.
      }
  }
}

/** The decompressed head (128 KiB at most) of the `.jsonl.zst` open at `descriptor`, read lazily. */
function zstdHeadOf(descriptor: number): string {
  function* chunks(): Generator<Uint8Array> {
    for (let position = 0; ; ) {
      const buffer = Buffer.allocUnsafe(zstdChunkBytes);
      const bytesRead = fsSync.readSync(descriptor, buffer, 0, zstdChunkBytes, position);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
      position += bytesRead;
    }
  }
  return zstdHead(chunks(), headBytes);
}

/** The JSON object on the first line of `text`, when it is one. */
export function firstLineOf(text: string): JsonObject | undefined {
  const end = text.indexOf("\n");
  try {
    const value: unknown = JSON.parse(end === -1 ? text : text.slice(0, end));
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The first JSON line of a plain or zstd rollout (a meta line of up to 128 KiB); undefined when unreadable. */
export function readFirstLine(file: string): JsonObject | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = fsSync.openSync(file, openFlags);
    if (file.endsWith(".zst")) return firstLineOf(zstdHeadOf(descriptor));
    // Parsed JSON, so a JSON object.
    return headLines(descriptor).next().value as JsonObject | undefined;
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined)
      try {
        fsSync.closeSync(descriptor);
      } catch {
        // Only read through it.
      }
  }
}

/** Read a rollout file (plain or zstd) as text, with errors as TxcriptError. */
export async function readRolloutFile(file: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch (cause) {
    throw ioError(cause, file, "read", harness);
  }
  return rolloutText(bytes, file);
}
