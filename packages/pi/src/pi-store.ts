// The pi session store: `<agent dir>/sessions/--<munged cwd>--/<timestamp>_<id>.jsonl`
// (agent dir `$PI_CODING_AGENT_DIR`, else ~/.pi/agent), or every session
// directly in `$PI_CODING_AGENT_SESSION_DIR`. A session is known by the id in
// its header line, as pi knows it; discovery reads a bounded head and tail of
// each file, never a whole session, and parses only the lines that can
// change its title. Writes are atomic and never clobber.
import * as path from "node:path";
import {
  type Discovered,
  deleteSessionFile,
  eventLoopTurns,
  ioError,
  listDirectories,
  oneSessionFile,
  parseJsonObject,
  readFileEnds,
  readHead,
  readTextFile,
  refuseCopyElsewhere,
  regularFiles,
  type SaveOptions,
  type SkippedFile,
  type Store,
  saveSessionFile,
  TxcriptError,
  unsafeIdError,
} from "@txcript/core";
import { piCodec } from "./pi-codec.js";
import { mungePiCwd, piSessionFileName, piSessionsRoot } from "./pi-paths.js";
import { harness, type PiSession } from "./pi-schema.js";

export interface PiStoreOptions {
  /** The sessions directory; defaults to PiStore.defaultRoot(env). */
  root?: string;
  /** Whether sessions sit directly in `root` (PI_CODING_AGENT_SESSION_DIR) rather than in per-cwd directories. */
  flat?: boolean;
  env?: NodeJS.ProcessEnv;
}

export interface PiSaveOptions extends SaveOptions {
  /** The directory's cwd when the header records none. */
  cwd?: string;
}

const headBytes = 65_536;
const safeId = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

interface Header {
  id: string;
  timestamp?: string;
  cwd?: string;
}

function own(value: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

/** The header of a session's first line, or undefined when pi would not take the file for a session. */
function readHeader(firstLine: string): Header | undefined {
  let value: unknown;
  try {
    value = JSON.parse(firstLine);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const object = value as Record<string, unknown>;
  const id = own(object, "id");
  if (own(object, "type") !== "session" || typeof id !== "string") return undefined;
  const header: Header = { id };
  const timestamp = own(object, "timestamp");
  const cwd = own(object, "cwd");
  if (typeof timestamp === "string") header.timestamp = timestamp;
  if (typeof cwd === "string") header.cwd = cwd;
  return header;
}

function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * The title pi's session list shows: the latest session_info name, else the
 * first user text. Only a line that can still change it is parsed (which
 * keeps a listing's cost per session flat with its size): one holding
 * `_info` (as `session_info` does; searched for by its rare first character,
 * several times faster than the whole word), one holding `user` while no
 * prompt is known, or one with a `\u` escape (which could spell either). A
 * JSON line of either kind holds its type or role in plain text or escaped,
 * so no line that matters is skipped.
 */
export function titleOf(lines: Iterable<string>): string | undefined {
  let name: string | undefined;
  let prompt: string | undefined;
  for (const line of lines) {
    if (
      !line.includes("_info") &&
      (prompt !== undefined || !line.includes("user")) &&
      !line.includes("\\u")
    )
      continue;
    const entry: Record<string, unknown> | undefined = parseJsonObject(line);
    if (entry === undefined) continue;
    const type = own(entry, "type");
    if (type === "session_info") {
      const named = own(entry, "name");
      name = typeof named === "string" && named.trim() !== "" ? named.trim() : undefined;
    }
    const message = own(entry, "message");
    if (
      prompt !== undefined ||
      type !== "message" ||
      typeof message !== "object" ||
      message === null
    )
      continue;
    const record = message as Record<string, unknown>;
    if (own(record, "role") !== "user") continue;
    const content = own(record, "content");
    const text =
      typeof content === "string"
        ? content
        : Array.isArray(content)
          ? content
              .filter(
                (block) =>
                  typeof block === "object" &&
                  block !== null &&
                  (block as { type?: unknown }).type === "text",
              )
              .map((block) => String((block as { text?: unknown }).text ?? ""))
              .join(" ")
          : "";
    if (text.trim() !== "") prompt = oneLine(text);
  }
  return name ?? prompt;
}

/**
 * What a listing shows of a session file, from the lines of its head and
 * tail (core readFileEnds; the tail's first, usually cut, line dropped; a cut
 * last line of the head is skipped by JSON.parse failing): undefined when
 * its first line is not a session header.
 */
export function peekPiSession(
  head: readonly string[],
  tail: readonly string[],
): { header: Header; title?: string } | undefined {
  const header = readHeader(head[0] ?? "");
  if (header === undefined) return undefined;
  // A tail without a newline keeps its one (cut, so unparsed) line, as before.
  const title = titleOf([...head.slice(1), ...(tail.length > 1 ? tail.slice(1) : tail)]);
  return title === undefined ? { header } : { header, title };
}

export class PiStore implements Store<PiSession> {
  readonly harness = harness;
  readonly root: string;
  readonly flat: boolean;

  /** `$PI_CODING_AGENT_SESSION_DIR`, else `<agent dir>/sessions`. */
  static defaultRoot(env: NodeJS.ProcessEnv = process.env): string {
    return piSessionsRoot(env).root;
  }

  constructor(options: PiStoreOptions = {}) {
    const env = options.env ?? process.env;
    const fallback = piSessionsRoot(env);
    this.root = path.resolve(options.root ?? fallback.root);
    this.flat = options.flat ?? (options.root === undefined ? fallback.flat : false);
  }

  async *discover(onSkip?: (skipped: SkippedFile) => void): AsyncIterable<Discovered> {
    const turn = eventLoopTurns();
    for (const file of await this.#files(onSkip)) {
      await turn();
      let seen: ReturnType<typeof peekPiSession>;
      let mtime: Date;
      try {
        // Synchronous bounded reads of a regular file (core readFileEnds).
        const ends = readFileEnds(file, headBytes, headBytes, harness);
        seen = peekPiSession(ends.head, ends.tail);
        mtime = ends.mtime;
      } catch (cause) {
        const error = TxcriptError.isInstance(cause)
          ? cause
          : ioError(cause, file, "read", harness);
        onSkip?.({ path: file, reason: error.message });
        continue;
      }
      if (seen === undefined) {
        onSkip?.({
          path: file,
          reason: "not a pi session (its first line is not a session header)",
        });
        continue;
      }
      const found: Discovered = {
        harness,
        id: seen.header.id,
        path: file,
        updatedAt: mtime.toISOString(),
      };
      if (seen.title !== undefined) found.title = seen.title;
      if (seen.header.cwd !== undefined) found.cwd = seen.header.cwd;
      yield found;
    }
  }

  /** locate(id) and the one load of a pi file: its parse (pi-harness.ts loadFile). */
  async load(id: string): Promise<PiSession> {
    const file = await this.locate(id);
    return piCodec.parse(await readTextFile(file, { harness }), { file });
  }

  async save(
    session: PiSession,
    options: PiSaveOptions = {},
  ): Promise<{ id: string; path: string }> {
    const first = session.lines.find((line) => line.text.trim() !== "");
    const header = first === undefined ? undefined : readHeader(first.text);
    if (header === undefined || !safeId.test(header.id)) {
      throw new TxcriptError(
        "USAGE",
        "the session has no header with an id pi can name its file by",
        {
          harness,
          hint: "write it with piCodec.fromCommon, which maps any id to one pi can use",
        },
      );
    }
    const timestamp = header.timestamp ?? new Date(0).toISOString();
    const cwd = header.cwd ?? options.cwd;
    let directory = this.root;
    if (!this.flat) {
      if (cwd === undefined || cwd === "") {
        throw new TxcriptError("USAGE", "the session records no cwd to place it under", {
          harness,
          hint: "set the transcript's meta.cwd, or pass { cwd } to save",
        });
      }
      directory = path.join(this.root, mungePiCwd(cwd));
    }
    const target = path.join(directory, piSessionFileName(timestamp, header.id));
    if (!options.overwrite)
      refuseCopyElsewhere(await this.#find(header.id), target, { id: header.id, harness });
    await saveSessionFile(target, piCodec.serialize(session), {
      overwrite: options.overwrite === true,
      root: this.root,
      harness,
      directory,
    });
    return { id: header.id, path: target };
  }

  async delete(id: string): Promise<void> {
    await deleteSessionFile(await this.locate(id), harness);
  }

  /** The file of session `id` (by its header): NOT_FOUND when none, AMBIGUOUS when two files hold it. */
  async locate(id: string): Promise<string> {
    return oneSessionFile(await this.#find(id), {
      id,
      harness,
      name: "pi",
      store: this.root,
      places: "files",
    });
  }

  /** Files whose header names `id`: those named `…_<id>.jsonl` first; only when none is, every file's header. */
  async #find(id: string): Promise<string[]> {
    if (!safeId.test(id))
      throw unsafeIdError(id, {
        harness,
        hint: "a pi session id is a UUID such as 019a0000-1111-7000-8000-000000000000",
      });
    const files = await this.#files();
    const named = files.filter((file) => path.basename(file).endsWith(`_${id}.jsonl`));
    const found: string[] = [];
    for (const file of named.length > 0 ? named : files) {
      let head: string;
      try {
        head = await readHead(file, 4096);
      } catch (cause) {
        // A file named for the id that cannot be read is still that session: load reports why (IO).
        if (named.length > 0 && (cause as NodeJS.ErrnoException).code !== "ENOENT")
          found.push(file);
        continue;
      }
      if (readHeader(head.split("\n")[0] ?? "")?.id === id) found.push(file);
    }
    return found;
  }

  async #files(onSkip?: (skipped: SkippedFile) => void): Promise<string[]> {
    const directories = this.flat ? [this.root] : await this.#subdirectories();
    return regularFiles(directories, (name) => name.endsWith(".jsonl"), { harness, onSkip });
  }

  #subdirectories(): Promise<string[]> {
    return listDirectories(this.root, harness);
  }
}
