// The bounded reads the Codex store lists and links sessions with: a
// rollout's head (session meta, first prompt), its tail (last event time),
// its first line (a subagent's parent), a zstd rollout's decompressed head,
// and whole-file reads of plain or zstd rollouts. Lenient: cut lines skip.
import { promises as fs } from "node:fs";
import { ioError, isJsonObject, type JsonObject } from "@txcript/core";
import { injectedSource } from "./codex-items.js";
import { harness } from "./codex-schema.js";
import { rolloutText, zstdHead } from "./codex-zstd.js";

/** Bytes read from the head and the tail of each rollout while listing. */
export const firstHeadBytes = 32_768;
export const headBytes = 131_072;
export const firstTailBytes = 4_096;
export const tailBytes = 65_536;
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

/** The JSON objects of complete lines, from the start (or, with `reverse`, from the end), lazily. */
export function* parsedLines(text: string, reverse = false): Generator<Loose> {
  const pieces = text.split("\n");
  if (reverse) pieces.reverse();
  for (const line of pieces) {
    if (line === "") continue;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === "object" && value !== null && !Array.isArray(value))
        yield value as Loose;
    } catch {
      // A cut line at the edge of the head or tail.
    }
  }
}

interface Peek {
  id?: string;
  cwd?: string;
  prompt?: string;
}

/** Session id, cwd and first prompt from a rollout's head, read leniently; undefined when it is no rollout. */
export function peekHead(text: string): Peek | undefined {
  const lines = parsedLines(text);
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
  for (const line of lines) {
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

/** `length` bytes at `position` as text (a character cut at an edge only spoils that edge's line). */
async function readRange(handle: fs.FileHandle, position: number, length: number): Promise<string> {
  const buffer = Buffer.allocUnsafe(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead).toString("utf8");
}

/**
 * What a plain rollout's head and tail say, reading as little as it can: a
 * 32 KiB head first (128 KiB when the meta line or the first prompt is not in
 * it), and a 4 KiB tail (64 KiB when no whole line with a time is in it).
 */
export async function peekFile(
  file: string,
  size: number,
): Promise<{ seen: Peek | undefined; last: string | undefined }> {
  const handle = await fs.open(file, "r");
  try {
    let head = await readRange(handle, 0, Math.min(size, firstHeadBytes));
    let seen = peekHead(head);
    if (size > firstHeadBytes && (seen === undefined || seen.prompt === undefined)) {
      head = await readRange(handle, 0, Math.min(size, headBytes));
      seen = peekHead(head);
    }
    if (seen === undefined) return { seen, last: undefined };
    if (size <= head.length) return { seen, last: lastEventTime(head) };
    let last = lastEventTime(
      await readRange(handle, Math.max(0, size - firstTailBytes), Math.min(size, firstTailBytes)),
    );
    if (last === undefined)
      last = lastEventTime(
        await readRange(handle, Math.max(0, size - tailBytes), Math.min(size, tailBytes)),
      );
    return { seen, last };
  } finally {
    await handle.close();
  }
}

/** The decompressed head of a `.jsonl.zst`, read 16 KiB of compressed bytes at a time. */
export async function readZstdHead(file: string): Promise<string> {
  const handle = await fs.open(file, "r");
  try {
    const chunks: Uint8Array[] = [];
    let position = 0;
    // Compressed rollouts shrink ~10×: a bounded compressed read covers the head.
    while (position < headBytes) {
      const buffer = Buffer.alloc(16_384);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      position += bytesRead;
    }
    return zstdHead(chunks, headBytes);
  } finally {
    await handle.close();
  }
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

/** The first line of a plain rollout (a meta line of up to 128 KiB), parsed. */
export async function readFirstLine(file: string): Promise<JsonObject | undefined> {
  const handle = await fs.open(file, "r");
  try {
    let text = await readRange(handle, 0, firstHeadBytes);
    if (!text.includes("\n")) text = await readRange(handle, 0, headBytes);
    return firstLineOf(text);
  } finally {
    await handle.close();
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
