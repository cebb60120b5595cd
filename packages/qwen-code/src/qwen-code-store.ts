// The Qwen Code session store: `<runtime dir>/projects/<sanitized cwd>/chats/
// <sessionId>.jsonl` (runtime dir `$QWEN_RUNTIME_DIR`, else `$QWEN_HOME`,
// else ~/.qwen). A session is known by its file name, as Qwen Code finds it
// (`--resume <id>` opens chats/<id>.jsonl of the current project);
// discovery reads a bounded head of each file, never a whole session.
// Writes are atomic and never clobber.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  type Discovered,
  deleteFilesIn,
  deleteSessionFile,
  ioError,
  isRegularFile,
  joinJsonLines,
  type LoadContext,
  listDirectories,
  loadText,
  oneSessionFile,
  readHead,
  refuseCopyElsewhere,
  regularFiles,
  type SaveOptions,
  type SkippedFile,
  type Store,
  saveSessionFile,
  TxcriptError,
  unsafeIdError,
} from "@txcript/core";
import { qwenCodeCodec } from "./qwen-code-codec.js";
import { defaultQwenRoot, isQwenFileId, qwenProjectDirName } from "./qwen-code-paths.js";
import { harness, type QwenCodeSession, recordOf } from "./qwen-code-schema.js";
import { qwenSessionPaths } from "./qwen-code-store-root.js";
import { qwenAgentFileNames, qwenFileNameComponent, withSubagents } from "./qwen-code-subagents.js";

/** An agent's transcript or sidecar, as Qwen Code names them (qwenAgentFileNames). */
const agentFile = /^agent-.+\.(jsonl|meta\.json)$/;

/** The session in `file` (any path), with the subagent transcripts beside it when it sits in a `chats/` directory. */
export async function loadQwenFile(
  file: string,
  context: Partial<LoadContext> = {},
): Promise<QwenCodeSession> {
  const text = context.text ?? (await loadText(file, { environment: {}, ...context }, harness));
  return withSubagents(file, qwenCodeCodec.parse(text, { file }), context);
}

export interface QwenCodeStoreOptions {
  /** The runtime directory holding projects/; defaults to QwenCodeStore.defaultRoot(env). */
  root?: string;
  env?: NodeJS.ProcessEnv;
}

export interface QwenCodeSaveOptions extends SaveOptions {
  /** The project directory when the first record records no cwd. */
  cwd?: string;
}

const headBytes = 65_536;

function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

interface Head {
  sessionId?: string;
  cwd?: string;
  title?: string;
}

/** What the head of a recording says: its first record's session and cwd, and the first prompt's text. */
function readHeadRecords(text: string): Head {
  const head: Head = {};
  for (const line of text.split("\n")) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) continue;
    const record = recordOf(value as never);
    if (record === undefined) continue;
    if (head.sessionId === undefined) {
      head.sessionId = record.sessionId;
      const cwd = (value as { cwd?: unknown }).cwd;
      if (typeof cwd === "string") head.cwd = cwd;
    }
    if (head.title === undefined && record.type === "user") {
      const parts = (value as { message?: { parts?: unknown } }).message?.parts;
      if (Array.isArray(parts)) {
        const text = parts
          .map((part) => (typeof part?.text === "string" ? part.text : ""))
          .join(" ");
        if (text.trim() !== "") head.title = oneLine(text);
      }
    }
    if (head.title !== undefined) break;
  }
  return head;
}

export class QwenCodeStore implements Store<QwenCodeSession> {
  readonly harness = harness;
  readonly root: string;
  readonly sessionPaths = [...qwenSessionPaths];

  static defaultRoot(env: NodeJS.ProcessEnv = process.env): string {
    return defaultQwenRoot(env);
  }

  constructor(options: QwenCodeStoreOptions = {}) {
    this.root = path.resolve(options.root ?? defaultQwenRoot(options.env ?? process.env));
  }

  async *discover(onSkip?: (skipped: SkippedFile) => void): AsyncIterable<Discovered> {
    for (const file of await this.#files(onSkip)) {
      try {
        const stat = await fs.stat(file);
        const text = await readHead(file, headBytes);
        const head = readHeadRecords(text);
        const id = path.basename(file, ".jsonl");
        // A first record longer than the head (a long pasted prompt) cannot be parsed from
        // it: the file, named by its session id, is listed without its title and cwd.
        const cutFirstLine =
          text.startsWith("{") && !text.includes("\n") && text.length >= headBytes / 2;
        if (head.sessionId === undefined && !cutFirstLine) {
          onSkip?.({ path: file, reason: "not a Qwen Code recording (no record in its head)" });
          continue;
        }
        const found: Discovered = { harness, id, path: file, updatedAt: stat.mtime.toISOString() };
        if (head.title !== undefined) found.title = head.title;
        if (head.cwd !== undefined) found.cwd = head.cwd;
        yield found;
      } catch (cause) {
        onSkip?.({ path: file, reason: ioError(cause, file, "read", harness).message });
      }
    }
  }

  async load(id: string): Promise<QwenCodeSession> {
    return this.loadFile(await this.locate(id));
  }

  /** The session in `file` with its subagent transcripts (`subagents/<id>/` beside `chats/`). */
  loadFile(file: string, context: Partial<LoadContext> = {}): Promise<QwenCodeSession> {
    return loadQwenFile(file, context);
  }

  /** The file a session is saved to: chats/<its session id>.jsonl in its cwd's project directory. */
  target(session: QwenCodeSession, cwd?: string): { id: string; path: string } {
    const first = session.lines
      .map((line) => recordOf(line.value))
      .find((record) => record !== undefined);
    if (first === undefined || !isQwenFileId(first.sessionId))
      throw new TxcriptError(
        "USAGE",
        "the session has no record with a session id Qwen Code can name its file by",
        {
          harness,
          hint: "write it with qwenCodeCodec.fromCommon, which maps any id to a UUID",
        },
      );
    const recorded = first.value.cwd;
    const directory = typeof recorded === "string" && recorded !== "" ? recorded : cwd;
    if (directory === undefined || directory === "")
      throw new TxcriptError("USAGE", "the session records no cwd to place it under", {
        harness,
        hint: "set the transcript's meta.cwd, or pass { cwd } to save",
      });
    return {
      id: first.sessionId,
      path: path.join(
        this.root,
        "projects",
        qwenProjectDirName(directory),
        "chats",
        `${first.sessionId}.jsonl`,
      ),
    };
  }

  async save(
    session: QwenCodeSession,
    options: QwenCodeSaveOptions = {},
  ): Promise<{ id: string; path: string }> {
    const { id, path: file } = this.target(session, options.cwd);
    if (!options.overwrite) refuseCopyElsewhere(await this.#find(id), file, { id, harness });
    const overwrite = options.overwrite === true;
    // An existing session is refused before anything is written; then the agents, then the
    // session, so a session Qwen Code lists never lacks the agents it names.
    if (!overwrite && (await isRegularFile(file)))
      throw new TxcriptError("CONFLICT", "the target already exists", {
        harness,
        location: { file },
        hint: "pass --force (or overwrite: true) to replace it",
      });
    const directory = path.join(
      path.dirname(path.dirname(file)),
      "subagents",
      qwenFileNameComponent(id),
    );
    for (const subagent of session.subagents ?? []) {
      if (subagent.meta.agentId !== subagent.agentId || subagent.meta.parentSessionId !== id)
        throw new TxcriptError(
          "USAGE",
          `subagent ${subagent.agentId} does not name itself and session ${id} in its meta`,
          { harness, hint: "write it with qwenCodeCodec.fromCommon" },
        );
      const names = qwenAgentFileNames(subagent.agentId);
      const common = { overwrite, root: this.root, harness };
      await saveSessionFile(
        path.join(directory, names.transcript),
        joinJsonLines(subagent.session.lines, subagent.session.finalNewline),
        common,
      );
      await saveSessionFile(
        path.join(directory, names.meta),
        JSON.stringify(subagent.meta, null, 2),
        common,
      );
    }
    await saveSessionFile(file, qwenCodeCodec.serialize(session), {
      overwrite,
      root: this.root,
      harness,
    });
    return { id, path: file };
  }

  /** Deletes the session's file and its agents' files (`subagents/<id>/agent-*`), as load reads them. */
  async delete(id: string): Promise<void> {
    const file = await this.locate(id);
    await deleteSessionFile(file, harness);
    await deleteFilesIn(
      path.join(path.dirname(path.dirname(file)), "subagents", qwenFileNameComponent(id)),
      (name) => agentFile.test(name),
      harness,
    );
  }

  /** The file of session `id`: NOT_FOUND when none, AMBIGUOUS when two projects hold it. */
  async locate(id: string): Promise<string> {
    return oneSessionFile(await this.#find(id), {
      id,
      harness,
      name: "Qwen Code",
      store: this.root,
      places: "projects",
    });
  }

  async #find(id: string): Promise<string[]> {
    if (!isQwenFileId(id))
      throw unsafeIdError(id, {
        harness,
        hint: "a Qwen Code session id is a UUID such as 5f5c417b-55ad-47a6-ad93-dce2ab9d96e2",
      });
    const found: string[] = [];
    for (const project of await listDirectories(path.join(this.root, "projects"), harness)) {
      const file = path.join(project, "chats", `${id}.jsonl`);
      // lstat: a link out of the store, or a FIFO, is not a session.
      if (await isRegularFile(file)) found.push(file);
    }
    return found;
  }

  async #files(onSkip?: (skipped: SkippedFile) => void): Promise<string[]> {
    const projects = await listDirectories(path.join(this.root, "projects"), harness);
    return regularFiles(
      projects.map((project) => path.join(project, "chats")),
      (name) => /^[0-9a-fA-F-]{32,36}\.jsonl$/.test(name),
      { harness, onSkip },
    );
  }
}
