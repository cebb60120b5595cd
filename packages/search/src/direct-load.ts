// Reading a discovered session by the path discovery found, for the stores
// whose `load(id)` would first look the id up again (a walk over every
// project directory, or over every recording's head: per session, a cost
// that grows with the store, so a first index over thousands of sessions
// spent most of its time there). Each reader returns exactly what the
// store's `load` returns for that file — the codec's parse of its text,
// plus what the store adds (Gemini CLI: the project root discovery already
// found) — and gives up (undefined: the store's own `load` then) whenever
// the store would read more than that one file: subagent files beside a
// Claude Code session or in a Gemini CLI chat's directory. The test
// (direct-load.test.ts) proves each equal to the store's load.
import { closeSync, promises as fs, openSync, readSync } from "node:fs";
import * as path from "node:path";
import { type Discovered, readTextFile } from "@txcript/core";

/** A harness's parse of one file's text (its codec's `parse`). */
export type ParseFile = (text: string, file: string) => unknown;

async function exists(file: string): Promise<boolean> {
  return (await fs.lstat(file).catch(() => undefined)) !== undefined;
}

type DirectReader = (session: Discovered, parse: ParseFile) => Promise<unknown | undefined>;

/** Where a Claude Code session's subagent files lie: `<session>/subagents/` beside its file. */
const claudeSubagents = (session: Discovered) =>
  path.join(path.dirname(session.path), path.basename(session.path, ".jsonl"), "subagents");

/** Where a Gemini CLI chat's subagent recordings lie: `chats/<id>/`. */
const geminiSubagents = (session: Discovered) => path.join(path.dirname(session.path), session.id);

const readers: Record<string, DirectReader> = {
  // pi's load is locate(id) (a walk of every session directory) and the parse of that file.
  pi: async (session, parse) =>
    parse(await readTextFile(session.path, { harness: "pi" }), session.path),
  // Claude Code's load adds the files of `<session>/subagents/` when that directory exists.
  claude_code: async (session, parse) => {
    if (await exists(claudeSubagents(session))) return undefined;
    return parse(await readTextFile(session.path, { harness: "claude_code" }), session.path);
  },
  // Gemini CLI's load adds the project root (what discovery reported as the cwd) and the
  // subagent recordings in `chats/<id>/`.
  gemini_cli: async (session, parse) => {
    if (await exists(geminiSubagents(session))) return undefined;
    const parsed = parse(
      await readTextFile(session.path, { harness: "gemini_cli" }),
      session.path,
    ) as object;
    return session.cwd === undefined ? parsed : { ...parsed, projectRoot: session.cwd };
  },
};

/** The native session read straight from its file, or undefined when the store must load it. */
export async function loadDirect(
  harness: string,
  session: Discovered,
  parse: ParseFile | undefined,
): Promise<unknown | undefined> {
  const reader = readers[harness];
  if (reader === undefined || parse === undefined) return undefined;
  return reader(session, parse);
}

/** The harnesses read by path. */
export const directHarnesses: readonly string[] = Object.keys(readers);

/**
 * A reader of one store's sessions by path, prepared for one refresh (see storeReader); its
 * `alone` says which sessions the store loads from their one file and nothing else.
 */
export type StoreReader = ((session: Discovered) => Promise<unknown | undefined>) & {
  readonly alone?: (session: Discovered) => boolean;
};

/** A Codex rollout's file name: its local start time and its session id. */
const rolloutName =
  /^rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-([0-9a-fA-F-]{36})\.jsonl(\.zst)?$/;
const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const zstdMagic = [0x28, 0xb5, 0x2f, 0xfd];

function isZstd(bytes: Uint8Array): boolean {
  return zstdMagic.every((byte, index) => bytes[index] === byte);
}

/** A file's first line, lower case; undefined when it is zstd, unreadable or has no line end in 1 MB. */
function firstLine(file: string): string | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(file, "r");
    const chunks: Buffer[] = [];
    for (let read = 0; read < 1 << 20; ) {
      const chunk = Buffer.alloc(16_384);
      const size = readSync(descriptor, chunk, 0, chunk.length, read);
      if (read === 0 && isZstd(chunk.subarray(0, size))) return undefined;
      const end = chunk.subarray(0, size).indexOf(10);
      chunks.push(chunk.subarray(0, end === -1 ? size : end));
      if (end !== -1 || size === 0) return Buffer.concat(chunks).toString("utf8").toLowerCase();
      read += size;
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/**
 * Codex's `load(id)` walks every rollout to find the id's file (twice: once for its children),
 * and stats every later rollout for subagents that name it as their parent thread in their
 * first line: ~10 % of a first build's main-thread time over the bench corpus, growing with the
 * store per session. Given every file under the store's root (the refresh's snapshot), this
 * reads each `rollout-…` file's first line once, and then reads a session alone — the text of
 * its file, as the store decodes it, through the codec's parse — only when the store's load
 * would read nothing more: its file's name carries its id, no other file carries that id, and
 * no other rollout's first line names it at all (a subagent names its parent there). Any other
 * session (a possible parent, an id in two files, a compressed file) is left to the store's
 * load; any compressed rollout, or a first line past 1 MB, leaves every session to it.
 */
function codexReader(files: readonly string[], parse: ParseFile): StoreReader | undefined {
  const rollouts: { file: string; id: string }[] = [];
  for (const file of files) {
    const match = rolloutName.exec(path.basename(file));
    if (match?.[2] !== undefined) return undefined;
    if (match?.[1] !== undefined) rollouts.push({ file, id: match[1].toLowerCase() });
  }
  const perId = new Map<string, number>();
  const named = new Set<string>();
  for (const { file, id } of rollouts) {
    perId.set(id, (perId.get(id) ?? 0) + 1);
    const line = firstLine(file);
    if (line === undefined) return undefined;
    for (const [other] of line.matchAll(uuid)) if (other !== id) named.add(other);
  }
  const alone = new Map<string, string>();
  for (const { file, id } of rollouts)
    if (perId.get(id) === 1 && !named.has(id)) alone.set(file, id);
  const reader = async (session: Discovered) => {
    if (alone.get(session.path) !== session.id) return undefined;
    const bytes = await fs.readFile(session.path).catch(() => undefined);
    if (bytes === undefined || isZstd(bytes)) return undefined;
    return parse(new TextDecoder("utf-8").decode(bytes), session.path);
  };
  return Object.assign(reader, {
    alone: (session: Discovered) => alone.get(session.path) === session.id,
  });
}

/**
 * For the stores whose sessions can be read by path only knowing the store's other files
 * (Codex), a reader for this refresh, given every file under the store's root as discovery
 * found it; undefined for the others (loadDirect, or the store's load, then).
 */
export function storeReader(
  harness: string,
  files: readonly string[],
  parse: ParseFile | undefined,
): StoreReader | undefined {
  return harness === "codex" && parse !== undefined ? codexReader(files, parse) : undefined;
}

/** Whether a file starts as zstd data does (read through the store, which decompresses it). */
async function startsZstd(file: string): Promise<boolean> {
  const handle = await fs.open(file, "r").catch(() => undefined);
  if (handle === undefined) return false;
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return bytesRead === 4 && isZstd(head);
  } finally {
    await handle.close();
  }
}

/** Options for a harness's readStream over one file (those of the whole read when empty). */
export type StreamOptions = Record<string, unknown>;

/**
 * When the store's load of a session is its codec's parse of that session's one file and
 * nothing else, so the file may be read line by line instead (the harness's readStream), the
 * options that make that read give what the load gives; undefined when it is not. Such are what
 * the direct readers above read alone (pi always; Claude Code and Gemini CLI without a subagent
 * directory beside the file), and a Codex rollout its store reader found alone (see
 * codexReader) that is not compressed. Gemini CLI's load also sets the project root, which
 * discovery gave as the session's cwd: read line by line, that cwd is passed as the read's.
 */
export async function readsAlone(
  harness: string,
  session: Discovered,
  direct: StoreReader | undefined,
): Promise<StreamOptions | undefined> {
  switch (harness) {
    case "pi":
      return {};
    case "claude_code":
      return (await exists(claudeSubagents(session))) ? undefined : {};
    case "gemini_cli":
      if (await exists(geminiSubagents(session))) return undefined;
      return session.cwd === undefined ? {} : { cwd: session.cwd };
    case "codex":
      return direct?.alone?.(session) === true && !(await startsZstd(session.path))
        ? {}
        : undefined;
    default:
      return undefined;
  }
}
