// The Copilot CLI session store: `<root>/session-state/<uuid>/events.jsonl`,
// root being `$COPILOT_HOME` or `~/.copilot`; the earlier flat
// `session-state/<uuid>.jsonl` files are listed and read too (Copilot CLI
// 1.0.102 refuses to resume them). Discovery reads a bounded head of each
// log; saving writes atomically into a new session directory, never over
// one unless asked.
import * as fsSync from "node:fs";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  type Discovered,
  type Environment,
  eventLoopTurns,
  ioError,
  isJsonObject,
  isRegularFile,
  type Json,
  type JsonObject,
  parseJsonObject,
  readFileEnds,
  readTextFile,
  type SaveOptions,
  type SkippedFile,
  type Store,
  saveSessionFile,
  TxcriptError,
  timestampMillis,
  unsafeIdError,
} from "@txcript/core";
import { copilotCliCodec } from "./copilot-cli-codec.js";
import { defaultCopilotRoot, isCopilotSessionId } from "./copilot-cli-paths.js";
import { type CopilotCliSession, harness } from "./copilot-cli-schema.js";
import { copilotSessionPaths } from "./copilot-cli-store-root.js";

export interface CopilotCliStoreOptions {
  /** The `.copilot` directory; defaults to CopilotCliStore.defaultRoot(env). */
  root?: string;
  env?: Environment;
}

const headBytes = 256 * 1024;
const flatLog = /^([0-9a-f-]{36})\.jsonl$/;

interface Head {
  sessionId?: string;
  cwd?: string;
  title?: string;
}

/**
 * What the complete lines of a log's head say: its id, cwd, and a title (the
 * latest `session.title_changed`, else the first prompt). Only a line that can
 * still change that is parsed, which keeps a listing's cost per session flat
 * with its size: every line until a session.start gives the id, then one
 * holding `_changed` (as `session.title_changed` does; searched for by its
 * rare first character, several times faster than the whole word), one
 * holding `user.message` while no prompt is known, or one with a `\u`
 * escape (which could spell either). An event's
 * type is in its line in plain text or escaped, so no line that matters is
 * skipped.
 */
export function readLogHead(lines: Iterable<string>): Head {
  const found: Head = {};
  let prompt: string | undefined;
  // The last line may be cut by the head's end; it is read only when whole.
  for (const line of lines) {
    if (
      found.sessionId !== undefined &&
      !line.includes("_changed") &&
      (prompt !== undefined || !line.includes("user.message")) &&
      !line.includes("\\u")
    )
      continue;
    const event = parseJsonObject(line);
    if (event === undefined) continue;
    const data = isJsonObject(event.data as Json) ? (event.data as JsonObject) : {};
    if (event.type === "session.start" && found.sessionId === undefined) {
      if (typeof data.sessionId === "string") found.sessionId = data.sessionId;
      const context = isJsonObject(data.context as Json) ? (data.context as JsonObject) : {};
      if (typeof context.cwd === "string") found.cwd = context.cwd;
    } else if (event.type === "session.title_changed" && typeof data.title === "string")
      found.title = data.title;
    else if (
      event.type === "user.message" &&
      prompt === undefined &&
      typeof data.content === "string"
    )
      prompt = data.content.trim().split("\n")[0]?.slice(0, 200);
  }
  const title = found.title ?? prompt;
  if (title !== undefined && title !== "") found.title = title;
  else delete found.title;
  return found;
}

export class CopilotCliStore implements Store<CopilotCliSession> {
  readonly harness = harness;
  readonly root: string;
  /** The event logs only: not the logs, settings, session-store.db or each session's workspace files. */
  readonly sessionPaths = copilotSessionPaths;

  /** `$COPILOT_HOME` when set, else `~/.copilot`. */
  static defaultRoot(env: Environment = process.env): string {
    return defaultCopilotRoot(env as NodeJS.ProcessEnv);
  }

  constructor(options: CopilotCliStoreOptions = {}) {
    this.root = path.resolve(
      options.root ?? CopilotCliStore.defaultRoot(options.env ?? process.env),
    );
  }

  get #sessions(): string {
    return path.join(this.root, "session-state");
  }

  /** Every event log: `<uuid>/events.jsonl` directories first, then flat `<uuid>.jsonl` files. */
  async #logs(): Promise<{ id: string; file: string }[]> {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await fs.readdir(this.#sessions, { withFileTypes: true });
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw ioError(cause, this.#sessions, "list", harness);
    }
    const logs: { id: string; file: string }[] = [];
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory() && isCopilotSessionId(entry.name))
        logs.push({ id: entry.name, file: path.join(this.#sessions, entry.name, "events.jsonl") });
      const flat = entry.isFile() ? flatLog.exec(entry.name) : null;
      if (flat !== null && isCopilotSessionId(flat[1] as string))
        logs.push({ id: flat[1] as string, file: path.join(this.#sessions, entry.name) });
    }
    return logs;
  }

  async *discover(onSkip?: (skipped: SkippedFile) => void): AsyncIterable<Discovered> {
    const turn = eventLoopTurns();
    for (const { id, file } of await this.#logs()) {
      await turn();
      let stat: import("node:fs").Stats;
      try {
        // lstat: a FIFO would hang the head read, and a link may point outside the store.
        stat = fsSync.lstatSync(file);
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code === "ENOENT") continue;
        onSkip?.({ path: file, reason: ioError(cause, file, "read", harness).message });
        continue;
      }
      if (!stat.isFile()) {
        onSkip?.({ path: file, reason: "not a regular file" });
        continue;
      }
      try {
        // Synchronous, regular files only (core readFileEnds).
        const head = readLogHead(readFileEnds(file, headBytes, 0, harness).head);
        if (head.sessionId === undefined) {
          onSkip?.({
            path: file,
            reason: "not a Copilot CLI event log (no session.start with a sessionId in its head)",
          });
          continue;
        }
        if (head.sessionId !== id) {
          onSkip?.({ path: file, reason: `its session.start names ${head.sessionId}, not ${id}` });
          continue;
        }
        const found: Discovered = { harness, id, path: file, updatedAt: stat.mtime.toISOString() };
        if (head.title !== undefined) found.title = head.title;
        if (head.cwd !== undefined) found.cwd = head.cwd;
        yield found;
      } catch (cause) {
        const error = TxcriptError.isInstance(cause)
          ? cause
          : ioError(cause, file, "read", harness);
        onSkip?.({ path: file, reason: error.message });
      }
    }
  }

  /** The event log of session `id` (its directory's events.jsonl, else a flat `<id>.jsonl`). */
  async locate(id: string): Promise<string> {
    if (!isCopilotSessionId(id))
      throw unsafeIdError(id, { harness, hint: "Copilot CLI session ids are lowercase UUIDs" });
    // Only a regular file: never a link out of the store or a FIFO.
    for (const file of [
      path.join(this.#sessions, id, "events.jsonl"),
      path.join(this.#sessions, `${id}.jsonl`),
    ])
      if (await isRegularFile(file)) return file;
    throw new TxcriptError("NOT_FOUND", `no Copilot CLI session ${id} in ${this.#sessions}`, {
      harness,
      location: { file: path.join(this.#sessions, id, "events.jsonl") },
      hint: "`txcript list --harness copilot_cli` lists the sessions there",
    });
  }

  async load(id: string): Promise<CopilotCliSession> {
    const file = await this.locate(id);
    return copilotCliCodec.parse(await readTextFile(file, { harness }), { file });
  }

  async save(
    session: CopilotCliSession,
    options: SaveOptions = {},
  ): Promise<{ id: string; path: string }> {
    const start = session.lines.find((line) => line.value !== undefined)?.value;
    const data =
      start !== undefined && start.type === "session.start" && isJsonObject(start.data)
        ? start.data
        : undefined;
    const id = typeof data?.sessionId === "string" ? data.sessionId : "";
    if (!isCopilotSessionId(id))
      throw unsafeIdError(id, {
        harness,
        hint: "the first event must be session.start naming a lowercase UUID sessionId",
      });
    const directory = path.join(this.#sessions, id);
    const target = path.join(directory, "events.jsonl");
    const last = session.lines.findLast((line) => line.value !== undefined)?.value;
    const millis = timestampMillis(last?.timestamp);
    await saveSessionFile(target, copilotCliCodec.serialize(session), {
      harness,
      root: this.root,
      directory,
      ...(options.overwrite === undefined ? {} : { overwrite: options.overwrite }),
      ...(Number.isFinite(millis) ? { mtime: new Date(millis) } : {}),
    });
    return { id, path: target };
  }

  async delete(id: string): Promise<void> {
    const file = await this.locate(id);
    try {
      await fs.unlink(file);
      if (path.basename(file) === "events.jsonl")
        await fs.rmdir(path.dirname(file)).catch(() => undefined);
    } catch (cause) {
      throw ioError(cause, file, "delete", harness);
    }
  }
}
