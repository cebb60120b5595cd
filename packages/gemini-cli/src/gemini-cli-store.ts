// The Gemini CLI recording store: `<root>/tmp/<slug or project hash>/chats/
// session-*.json(l)`, root being `$GEMINI_CLI_HOME/.gemini` or
// `~/.gemini`, with subagent recordings in `chats/<parent session id>/`.
// Discovery reads heads and tails only and lists what `gemini
// --list-sessions` lists (no subagents; one file per session id, the latest
// update winning). Saving registers the project in projects.json, refuses a
// recording Gemini CLI's cleanup would delete, and writes atomically.
import * as fsSync from "node:fs";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  type Discovered,
  deleteFilesIn,
  deleteSessionFile,
  type Environment,
  eventLoopTurns,
  ioError,
  type LoadContext,
  readFileEnds,
  type SaveOptions,
  type SkippedFile,
  type Store,
  saveSessionFile,
  TxcriptError,
  timestampMillis,
  unsafeIdError,
} from "@txcript/core";
import { geminiCliCodec } from "./gemini-cli-codec.js";
import { readRecording, reportMissingSubagents, subagentRecordings } from "./gemini-cli-load.js";
import { defaultGeminiRoot, geminiSessionFileName, isGeminiSessionId } from "./gemini-cli-paths.js";
import {
  hasResumableContent,
  headBytes,
  type Peek,
  peekJsonlEnds,
  peekRecording,
} from "./gemini-cli-peek.js";
import { projectRootOf, readProjects, registerGeminiProject } from "./gemini-cli-projects.js";
import { replay } from "./gemini-cli-records.js";
import { type GeminiCliSession, type GeminiCliSubagentFile, harness } from "./gemini-cli-schema.js";
import { geminiSessionPaths } from "./gemini-cli-store-root.js";

export interface GeminiCliStoreOptions {
  /** The `.gemini` directory; defaults to GeminiCliStore.defaultRoot(env). */
  root?: string;
  env?: Environment;
}

export interface GeminiCliSaveOptions extends SaveOptions {
  /** The project directory, when the recording names none (no `directories`, no projectRoot). */
  cwd?: string;
  /** The time of saving, to judge a stale `lastUpdated` (default: now). */
  now?: Date;
}

/** Gemini CLI deletes recordings last updated more than 30 days ago; refuse those older than a day. */
const staleMs = 24 * 60 * 60 * 1000;
const sessionFile = /^session-.*\.jsonl?$/;

interface Found {
  file: string;
  directory: string;
  peek: Peek;
  updated: number;
}

export class GeminiCliStore implements Store<GeminiCliSession> {
  readonly harness = harness;
  readonly root: string;
  /**
   * What discover and load read: the project registry, each project's marker and its chats
   * (not the per-project logs.json Gemini CLI rewrites on every prompt, nor history/).
   */
  readonly sessionPaths = geminiSessionPaths;

  /** `$GEMINI_CLI_HOME/.gemini` when set, else `~/.gemini`. */
  static defaultRoot(env: Environment = process.env): string {
    return defaultGeminiRoot(env as NodeJS.ProcessEnv);
  }

  constructor(options: GeminiCliStoreOptions = {}) {
    this.root = path.resolve(
      options.root ?? GeminiCliStore.defaultRoot(options.env ?? process.env),
    );
  }

  async *discover(onSkip?: (skipped: SkippedFile) => void): AsyncIterable<Discovered> {
    const projects = await readProjects(this.root).catch(() => new Map<string, string>());
    const newest = new Map<string, Found>();
    for await (const found of this.#recordings(onSkip)) {
      const id = found.peek.sessionId as string;
      const known = newest.get(`${found.directory}\u0000${id}`);
      if (known === undefined || found.updated > known.updated)
        newest.set(`${found.directory}\u0000${id}`, found);
    }
    for (const found of newest.values()) {
      const cwd =
        (await projectRootOf(this.root, found.directory, projects)) ?? found.peek.directory;
      const discovered: Discovered = {
        harness,
        id: found.peek.sessionId as string,
        path: found.file,
        updatedAt: new Date(found.updated).toISOString(),
      };
      const title = found.peek.summary ?? found.peek.prompt;
      if (title !== undefined) discovered.title = title;
      if (cwd !== undefined) discovered.cwd = cwd;
      yield discovered;
    }
  }

  async load(id: string): Promise<GeminiCliSession> {
    return this.loadFile((await this.#locate(id)).file);
  }

  /**
   * The recording in `file` (`tmp/<project>/chats/…` of this store), with its
   * subagent recordings (`chats/<id>/`) and its project root: the one load
   * of a stored recording (gemini-cli-load.ts).
   */
  async loadFile(file: string, context: Partial<LoadContext> = {}): Promise<GeminiCliSession> {
    const session = await readRecording(file, context);
    const projectRoot = await this.projectRootOf(file, context);
    const subagents = await subagentRecordings(file, session, context);
    reportMissingSubagents(session, subagents, file, context);
    return {
      ...session,
      ...(subagents.length === 0 ? {} : { subagents }),
      ...(projectRoot === undefined ? {} : { projectRoot }),
    };
  }

  /** The project directory of a recording of this store: its project's registered root, else its own. */
  async projectRootOf(
    file: string,
    context: Partial<LoadContext> = {},
  ): Promise<string | undefined> {
    const directory = path.basename(path.dirname(path.dirname(file)));
    const projects = await readProjects(this.root).catch(() => new Map<string, string>());
    const registered = await projectRootOf(this.root, directory, projects);
    if (registered !== undefined) return registered;
    if (context.discovered?.cwd !== undefined) return context.discovered.cwd;
    const stat = await fs.stat(file).catch(() => undefined);
    return stat === undefined ? undefined : (await peekRecording(file, stat.size)).directory;
  }

  /** The file of session `id`: NOT_FOUND when none, AMBIGUOUS when two projects hold it. */
  async locate(id: string): Promise<string> {
    return (await this.#locate(id)).file;
  }

  async save(
    session: GeminiCliSession,
    options: GeminiCliSaveOptions = {},
  ): Promise<{ id: string; path: string }> {
    const { metadata } = replay(session);
    const sessionId = typeof metadata.sessionId === "string" ? metadata.sessionId : undefined;
    if (sessionId === undefined || !isGeminiSessionId(sessionId))
      throw new TxcriptError("USAGE", "the recording has no session id Gemini CLI can resume by", {
        harness,
        hint: "write it with geminiCliCodec.fromCommon, which maps any id to a usable one",
      });
    const directories = Array.isArray(metadata.directories) ? metadata.directories : [];
    const projectRoot =
      options.cwd ??
      session.projectRoot ??
      (typeof directories[0] === "string" ? directories[0] : undefined);
    if (projectRoot === undefined || projectRoot === "")
      throw new TxcriptError("USAGE", "the recording names no project directory to file it under", {
        harness,
        hint: "set the transcript's meta.cwd, or pass { cwd } to save",
      });
    if (!hasResumableContent(session))
      throw new TxcriptError(
        "REFUSED",
        "Gemini CLI would delete this recording: it has no message it can resume",
        {
          harness,
          hint: "a recording needs a user prompt (not a /command) or a gemini reply",
        },
      );
    const updated = timestampMillis(metadata.lastUpdated);
    const now = (options.now ?? new Date()).getTime();
    if (!Number.isFinite(updated) || now - updated > staleMs)
      throw new TxcriptError(
        "REFUSED",
        "Gemini CLI's cleanup would delete this recording: its lastUpdated is old",
        {
          harness,
          hint: "write it again with geminiCliCodec.fromCommon, which sets lastUpdated to the time of writing",
        },
      );
    const slug = await registerGeminiProject(this.root, projectRoot);
    const chats = path.join(this.root, "tmp", slug, "chats");
    const started = timestampMillis(metadata.startTime);
    const extension = session.format === "json" ? ".json" : ".jsonl";
    const name = geminiSessionFileName(
      sessionId,
      new Date(Number.isFinite(started) ? started : now),
    ).replace(/\.jsonl$/, extension);
    const target = path.join(chats, name);
    if (!options.overwrite) {
      const existing = await this.#inDirectory(chats, sessionId);
      if (existing.some((file) => file !== target))
        throw new TxcriptError("CONFLICT", `session ${sessionId} already exists in this project`, {
          harness,
          location: { file: existing[0] as string },
          hint: "pass overwrite: true to write it again",
        });
    }
    await this.#write(target, geminiCliCodec.serialize(session), options.overwrite === true);
    await this.#saveSubagents(
      chats,
      sessionId,
      session.subagents ?? [],
      options.overwrite === true,
    );
    return { id: sessionId, path: target };
  }

  /**
   * Deletes the session's recording and its subagents' (`chats/<id>/*.jsonl`, theirs in
   * `chats/<their id>/`, as save writes them and load reads them), each directory once empty.
   */
  async delete(id: string): Promise<void> {
    const { file } = await this.#locate(id);
    await deleteSessionFile(file, harness);
    await this.#deleteSubagents(path.dirname(file), id, new Set([id]));
  }

  async #deleteSubagents(chats: string, parentId: string, seen: Set<string>): Promise<void> {
    const deleted = await deleteFilesIn(
      path.join(chats, parentId),
      (name) => name.endsWith(".jsonl"),
      harness,
    );
    for (const recording of deleted) {
      const childId = path.basename(recording, ".jsonl");
      if (isGeminiSessionId(childId) && !seen.has(childId)) {
        seen.add(childId);
        await this.#deleteSubagents(chats, childId, seen);
      }
    }
  }

  #write(target: string, text: string, overwrite: boolean): Promise<void> {
    return saveSessionFile(target, text, { overwrite, root: this.root, harness });
  }

  async #saveSubagents(
    chats: string,
    parentId: string,
    subagents: readonly GeminiCliSubagentFile[],
    overwrite: boolean,
  ): Promise<void> {
    for (const { id, session } of subagents) {
      if (!isGeminiSessionId(id) || !isGeminiSessionId(parentId))
        throw unsafeIdError(id, { harness, what: "subagent id" });
      await this.#write(
        path.join(chats, parentId, `${id}.jsonl`),
        geminiCliCodec.serialize(session),
        overwrite,
      );
      await this.#saveSubagents(chats, id, session.subagents ?? [], overwrite);
    }
  }

  async #locate(id: string): Promise<Found> {
    if (!isGeminiSessionId(id))
      throw unsafeIdError(id, {
        harness,
        hint: "a Gemini CLI session id is a UUID such as 2d9ea14f-1e4e-44f6-8bf5-7a7819cb1cd9",
      });
    const byDirectory = new Map<string, Found>();
    // Files named for this id (…-<first 8>.json(l)) that could not be read: not NOT_FOUND, but IO.
    const unreadable: SkippedFile[] = [];
    const named = new RegExp(`-${id.slice(0, 8)}\\.jsonl?$`);
    const onSkip = (skipped: SkippedFile) => {
      if (named.test(skipped.path) && !skipped.reason.startsWith("not a Gemini"))
        unreadable.push(skipped);
    };
    for await (const found of this.#recordings(onSkip)) {
      if (found.peek.sessionId !== id) continue;
      const known = byDirectory.get(found.directory);
      if (known === undefined || found.updated > known.updated)
        byDirectory.set(found.directory, found);
    }
    const all = [...byDirectory.values()];
    const [first] = unreadable;
    if (all.length === 0 && first !== undefined)
      throw new TxcriptError("IO", first.reason, {
        harness,
        location: { file: first.path },
      });
    if (all.length === 0)
      throw new TxcriptError("NOT_FOUND", `no Gemini CLI session ${id}`, {
        harness,
        location: { file: this.root },
      });
    if (all.length > 1)
      throw new TxcriptError("AMBIGUOUS", `session ${id} exists in ${all.length} projects`, {
        harness,
        location: { file: (all[0] as Found).file },
        hint: all.map((found) => found.file).join(", "),
      });
    return all[0] as Found;
  }

  async #inDirectory(chats: string, id: string): Promise<string[]> {
    const names = await fs.readdir(chats).catch(() => [] as string[]);
    const out: string[] = [];
    for (const name of names.filter((entry) => sessionFile.test(entry))) {
      const file = path.join(chats, name);
      const stat = await fs.stat(file).catch(() => undefined);
      if (stat?.isFile() && (await peekRecording(file, stat.size)).sessionId === id) out.push(file);
    }
    return out;
  }

  /** Every main recording in every project directory, with what its head says. */
  async *#recordings(onSkip?: (skipped: SkippedFile) => void): AsyncIterable<Found> {
    const tmp = path.join(this.root, "tmp");
    let directories: string[];
    try {
      directories = (await fs.readdir(tmp, { withFileTypes: true }))
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort();
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === "ENOENT") return;
      throw ioError(cause, tmp, "list", harness);
    }
    const turn = eventLoopTurns();
    for (const directory of directories) {
      const chats = path.join(tmp, directory, "chats");
      const names = await fs.readdir(chats).catch(() => [] as string[]);
      for (const name of names.filter((entry) => sessionFile.test(entry)).sort()) {
        const file = path.join(chats, name);
        await turn();
        try {
          // Synchronous: lstat, then a JSONL recording's two ends (core readFileEnds).
          const stat = fsSync.lstatSync(file);
          if (!stat.isFile()) continue;
          let peek: Peek;
          if (name.endsWith(".jsonl")) {
            const { head, tail } = readFileEnds(file, headBytes, headBytes, harness);
            peek = peekJsonlEnds(head, tail);
          } else peek = await peekRecording(file, stat.size);
          if (peek.sessionId === undefined || peek.sessionId === "") {
            onSkip?.({
              path: file,
              reason: "not a Gemini CLI recording (no sessionId in its head)",
            });
            continue;
          }
          if (peek.kind === "subagent") {
            onSkip?.({
              path: file,
              reason: "a subagent recording (Gemini CLI does not list these)",
            });
            continue;
          }
          const updated = timestampMillis(peek.lastUpdated);
          yield {
            file,
            directory,
            peek,
            updated: Number.isFinite(updated) ? updated : stat.mtimeMs,
          };
        } catch (cause) {
          const error = TxcriptError.isInstance(cause)
            ? cause
            : ioError(cause, file, "read", harness);
          onSkip?.({ path: file, reason: error.message });
        }
      }
    }
  }
}
