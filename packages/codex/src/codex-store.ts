// The Codex rollout store: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<local
// time>-<uuid>.jsonl` (or `.jsonl.zst`), and `archived_sessions/`.
// Discovery reads a bounded head and tail of each file (rollouts pass 1 GB);
// titles come from `session_index.jsonl`. Saving is atomic and no-clobber,
// with the mtime set to the last event; Codex's SQLite state is never written.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  type Discovered,
  ioError,
  isUuid,
  type SaveOptions,
  type SkippedFile,
  type Store,
  TxcriptError,
  writeFileAtomic,
} from "@txcript/core";
import { codexCodec } from "./codex-codec.js";
import { injectedSource } from "./codex-items.js";
import { defaultCodexHome, rolloutIdOf, rolloutRelativePath } from "./codex-paths.js";
import { type CodexRollout, harness, serializeRollout } from "./codex-schema.js";
import { rolloutText, zstdHead } from "./codex-zstd.js";

export interface CodexStoreOptions {
  /** The Codex home (`CODEX_HOME`); defaults to CodexStore.defaultRoot(env). */
  root?: string;
  env?: Record<string, string | undefined>;
}

export type CodexSaveOptions = SaveOptions;

/** Bytes read from the head and the tail of each rollout while listing. */
const firstHeadBytes = 32_768;
const headBytes = 131_072;
const firstTailBytes = 4_096;
const tailBytes = 65_536;
const sessionDirectories = ["sessions", "archived_sessions"];

type Loose = Record<string, unknown>;

function own(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && Object.hasOwn(value, key)
    ? (value as Loose)[key]
    : undefined;
}

function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** The JSON objects of complete lines, from the start (or, with `reverse`, from the end), lazily. */
function* parsedLines(text: string, reverse = false): Generator<Loose> {
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
function peekHead(text: string): Peek | undefined {
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
function lastEventTime(text: string): string | undefined {
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
async function peekFile(
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
async function readZstdHead(file: string): Promise<string> {
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

export class CodexStore implements Store<CodexRollout> {
  readonly harness = harness;
  /** The Codex home: sessions live under `<root>/sessions`. */
  readonly root: string;

  /** `$CODEX_HOME` when set, else `~/.codex`. */
  static defaultRoot(env: Record<string, string | undefined> = process.env): string {
    return defaultCodexHome(env);
  }

  constructor(options: CodexStoreOptions = {}) {
    this.root = path.resolve(options.root ?? CodexStore.defaultRoot(options.env ?? process.env));
  }

  async *discover(onSkip?: (skipped: SkippedFile) => void): AsyncIterable<Discovered> {
    const titles = await this.#titles();
    for (const file of await this.#rolloutFiles(onSkip)) {
      try {
        const stat = await fs.stat(file);
        const { seen, last } = file.endsWith(".zst")
          ? { seen: peekHead(await readZstdHead(file)), last: undefined }
          : await peekFile(file, stat.size);
        if (seen?.id === undefined) {
          onSkip?.({
            path: file,
            reason: "not a Codex rollout (no session_meta line at its start)",
          });
          continue;
        }
        const found: Discovered = {
          harness,
          id: seen.id.toLowerCase(),
          path: file,
          updatedAt: last ?? stat.mtime.toISOString(),
        };
        const title = titles.get(found.id) ?? seen.prompt;
        if (title !== undefined) found.title = title;
        if (seen.cwd !== undefined) found.cwd = seen.cwd;
        yield found;
      } catch (cause) {
        onSkip?.({ path: file, reason: ioError(cause, file, "read", harness).message });
      }
    }
  }

  async load(id: string): Promise<CodexRollout> {
    const file = await this.locate(id);
    return codexCodec.parse(await readRolloutFile(file), { file });
  }

  async save(
    rollout: CodexRollout,
    options: CodexSaveOptions = {},
  ): Promise<{ id: string; path: string }> {
    if (rollout.kind !== "lines")
      throw new TxcriptError("UNSUPPORTED", "Codex no longer reads {session, items} rollouts", {
        harness,
        hint: "convert it: codexCodec.fromCommon(codexCodec.toCommon(rollout)) writes the line format",
      });
    const meta = rollout.lines.find((line) => line.value !== undefined)?.value;
    const payload = meta?.type === "session_meta" ? (meta.payload as Loose | undefined) : undefined;
    const id = own(payload, "id");
    const timestamp = own(payload, "timestamp");
    if (typeof id !== "string" || !isUuid(id) || typeof timestamp !== "string") {
      throw new TxcriptError(
        "USAGE",
        "the rollout has no session_meta with a UUID id and a timestamp",
        {
          harness,
          hint: "write it with codexCodec.fromCommon, which gives every session one",
        },
      );
    }
    const sessionId = id.toLowerCase();
    const target = path.join(this.root, rolloutRelativePath(sessionId, timestamp));
    if (!options.overwrite) {
      const elsewhere = (await this.#find(sessionId)).filter((file) => file !== target);
      if (elsewhere.length > 0)
        throw new TxcriptError("CONFLICT", `session ${sessionId} already exists`, {
          harness,
          location: { file: elsewhere[0] as string },
          hint: "pass overwrite: true to write a second copy",
        });
    }
    try {
      await fs.mkdir(path.dirname(target), { recursive: true });
    } catch (cause) {
      throw ioError(cause, path.dirname(target), "write", harness);
    }
    const text = serializeRollout(rollout);
    await writeFileAtomic(target, text, {
      overwrite: options.overwrite === true,
      root: this.root,
      harness,
    });
    // Codex's listing shows the file's mtime as the session's last update.
    const last = lastEventTime(text.slice(-tailBytes));
    if (last !== undefined) {
      const when = new Date(last);
      await fs.utimes(target, when, when).catch(() => undefined);
    }
    if (rollout.title !== undefined && rollout.title.trim() !== "") {
      const entry = `${JSON.stringify({ id: sessionId, thread_name: rollout.title, updated_at: last ?? timestamp })}\n`;
      try {
        await fs.appendFile(path.join(this.root, "session_index.jsonl"), entry, "utf8");
      } catch (cause) {
        throw ioError(cause, path.join(this.root, "session_index.jsonl"), "write", harness);
      }
    }
    return { id: sessionId, path: target };
  }

  async delete(id: string): Promise<void> {
    const file = await this.locate(id);
    try {
      await fs.unlink(file);
    } catch (cause) {
      throw ioError(cause, file, "delete", harness);
    }
  }

  /** The file of session `id` (a plain `.jsonl` wins over its `.zst`); NOT_FOUND or AMBIGUOUS otherwise. */
  async locate(id: string): Promise<string> {
    const files = await this.#find(id);
    if (files.length === 0)
      throw new TxcriptError("NOT_FOUND", `no Codex session ${id}`, {
        harness,
        location: { file: this.root },
      });
    const plain = files.filter((file) => file.endsWith(".jsonl"));
    const chosen = plain.length > 0 ? plain : files;
    if (chosen.length > 1)
      throw new TxcriptError("AMBIGUOUS", `session ${id} has ${chosen.length} rollouts`, {
        harness,
        location: { file: chosen[0] as string },
        hint: chosen.join(", "),
      });
    return chosen[0] as string;
  }

  async #find(id: string): Promise<string[]> {
    if (!isUuid(id))
      throw new TxcriptError(
        "UNSAFE_PATH",
        `not a Codex session id: ${JSON.stringify(id.slice(0, 80))}`,
        {
          harness,
          hint: "a Codex session id is a UUID such as 019a93b9-f380-7600-98ff-940e6b99603c",
        },
      );
    const wanted = id.toLowerCase();
    return (await this.#rolloutFiles()).filter(
      (file) => rolloutIdOf(path.basename(file)) === wanted,
    );
  }

  /** Every rollout file name under sessions/ and archived_sessions/, newest directory first. */
  async #rolloutFiles(onSkip?: (skipped: SkippedFile) => void): Promise<string[]> {
    const out: string[] = [];
    const walk = async (directory: string, depth: number): Promise<void> => {
      let entries: import("node:fs").Dirent[];
      try {
        entries = await fs.readdir(directory, { withFileTypes: true });
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code === "ENOENT") return;
        onSkip?.({ path: directory, reason: ioError(cause, directory, "list", harness).message });
        return;
      }
      entries.sort((left, right) => (left.name < right.name ? 1 : left.name > right.name ? -1 : 0));
      for (const entry of entries) {
        const full = path.join(directory, entry.name);
        if (entry.isDirectory() && depth < 3) await walk(full, depth + 1);
        else if (entry.isFile() && rolloutIdOf(entry.name) !== undefined) out.push(full);
      }
    };
    for (const name of sessionDirectories) await walk(path.join(this.root, name), 0);
    // Codex reads the plain file when both a rollout and its .zst exist.
    const plain = new Set(out.filter((file) => file.endsWith(".jsonl")));
    return out.filter(
      (file) => !file.endsWith(".zst") || !plain.has(file.slice(0, -".zst".length)),
    );
  }

  /** Thread names from session_index.jsonl: the newest entry for an id wins. */
  async #titles(): Promise<Map<string, string>> {
    const titles = new Map<string, string>();
    let text: string;
    try {
      text = await fs.readFile(path.join(this.root, "session_index.jsonl"), "utf8");
    } catch {
      return titles;
    }
    for (const line of parsedLines(text)) {
      const id = own(line, "id");
      const name = own(line, "thread_name");
      if (typeof id === "string" && typeof name === "string" && name.trim() !== "")
        titles.set(id.toLowerCase(), name);
    }
    return titles;
  }
}
