// The Claude Code session store: `<root>/<munged cwd>/<session-id>.jsonl`,
// root being `$CLAUDE_CONFIG_DIR/projects` or `~/.claude/projects`. Discovery
// reads only the head and tail of each file; a session's sibling directory
// (`<id>/subagents`, `<id>/tool-results`) holds side files, never sessions.
// Loading gathers the session's 2.x subagent files
// (`<id>/subagents/agent-<agentId>.jsonl`) and saving writes them back
// (claude-code-subagent-files.ts). Writes are atomic and never clobber
// unless asked.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  type Discovered,
  deleteSessionFile,
  eventLoopTurns,
  ioError,
  isUuid,
  listDirectories,
  parseJsonObject,
  readFileEnds,
  type SaveOptions,
  type SkippedFile,
  type Store,
  saveSessionFile,
  TxcriptError,
  unsafeIdError,
  writeFileAtomic,
} from "@txcript/core";
import { claudeCodeCodec } from "./claude-code-codec.js";
import { defaultClaudeProjectsRoot, mungeClaudeProjectDir } from "./claude-code-paths.js";
import { type ClaudeCodeSession, harness } from "./claude-code-schema.js";
import { isClaudeCodeLine } from "./claude-code-sniff.js";
import {
  deleteSubagentFiles,
  loadClaudeCodeFile,
  splitSubagentFiles,
  subagentDirectory,
} from "./claude-code-subagent-files.js";

export interface ClaudeCodeStoreOptions {
  /** The `projects` directory; defaults to ClaudeCodeStore.defaultRoot(env). */
  root?: string;
  env?: NodeJS.ProcessEnv;
}

export interface ClaudeCodeSaveOptions extends SaveOptions {
  /** The project directory's cwd when the session's lines carry none. */
  cwd?: string;
}

const headBytes = 65_536;
const safeId = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export interface Peek {
  sessionId?: string;
  cwd?: string;
  title?: string;
  prompt?: string;
  recognized: boolean;
}

function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** A line as a JSON object, or undefined (cut, not JSON, or not an object). */
const objectLine = (line: string): Record<string, unknown> | undefined => parseJsonObject(line);

/**
 * The text a user line's content gives as a prompt: a string, or the first
 * text block of a list that holds no tool result (Claude Code 2.1.332's
 * session picker takes its first prompt the same way; a list of results
 * is not a prompt).
 */
function promptText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  let text: string | undefined;
  for (const block of content) {
    if (typeof block !== "object" || block === null) continue;
    const { type } = block as { type?: unknown };
    if (type === "tool_result") return undefined;
    const value = (block as { text?: unknown }).text;
    if (text === undefined && type === "text" && typeof value === "string") text = value;
  }
  return text;
}

/**
 * What the head and tail of a session file say, read leniently (cut lines
 * are skipped). Only a line that can still add something is parsed, which
 * keeps a listing's cost per session flat with its size (bench
 * `store-list`): until the file is recognized and its session id and cwd
 * are known, every line; after that, a line holding `Title` (as the
 * `customTitle` or `aiTitle` key of a custom-title or ai-title line does),
 * `y"` and `summary` (as the type `"summary"` does; `summary` is looked for
 * only in the few lines with `y"`), `user` while no prompt is known, or a
 * `\u` escape (which could spell any of those). The short needles start
 * with characters rare in text, which the search skips to several times
 * faster than to a `t` or `s`. A JSON line of such a type holds its key or
 * type in plain text or escaped, so no line that matters is skipped. The
 * uuids a summary's leaf is checked against are read only when there is a
 * summary.
 */
export function peekClaudeCodeSession(texts: readonly string[]): Peek {
  return peekClaudeCodeLines(texts.flatMap((text) => text.split("\n")));
}

/** peekClaudeCodeSession over lines (core readFileEnds gives a file's head and tail as lines). */
export function peekClaudeCodeLines(lines: readonly string[]): Peek {
  const result: Peek = { recognized: false };
  const summaries: { summary: string; leaf: string }[] = [];
  let custom: string | undefined;
  let ai: string | undefined;
  for (const line of lines) {
    const wanted =
      !result.recognized ||
      result.sessionId === undefined ||
      result.cwd === undefined ||
      line.includes("Title") ||
      (line.includes('y"') && line.includes("summary")) ||
      (result.prompt === undefined && line.includes("user")) ||
      line.includes("\\u");
    if (!wanted) continue;
    const value = objectLine(line);
    if (value === undefined) continue;
    const own = (key: string) => (Object.hasOwn(value, key) ? value[key] : undefined);
    if (!result.recognized && isClaudeCodeLine(value)) result.recognized = true;
    const type = own("type");
    if (result.sessionId === undefined && typeof own("sessionId") === "string")
      result.sessionId = own("sessionId") as string;
    if (result.cwd === undefined && typeof own("cwd") === "string")
      result.cwd = own("cwd") as string;
    if (type === "custom-title" && typeof own("customTitle") === "string")
      custom = own("customTitle") as string;
    if (type === "ai-title" && typeof own("aiTitle") === "string") ai = own("aiTitle") as string;
    if (
      type === "summary" &&
      typeof own("summary") === "string" &&
      typeof own("leafUuid") === "string"
    )
      summaries.push({ summary: own("summary") as string, leaf: own("leafUuid") as string });
    const message = own("message");
    if (
      result.prompt === undefined &&
      type === "user" &&
      own("isMeta") !== true &&
      typeof message === "object" &&
      message !== null
    ) {
      const content = promptText((message as { content?: unknown }).content);
      if (content !== undefined && !content.startsWith("<")) result.prompt = oneLine(content);
    }
  }
  let summary: string | undefined;
  if (summaries.length > 0) {
    const uuids = new Set<string>();
    for (const line of lines) {
      const value = objectLine(line);
      const uuid = value !== undefined && Object.hasOwn(value, "uuid") ? value.uuid : undefined;
      if (typeof uuid === "string") uuids.add(uuid);
    }
    summary = summaries.findLast((entry) => uuids.has(entry.leaf))?.summary;
  }
  const title = custom ?? summary ?? ai ?? result.prompt;
  if (title !== undefined) result.title = title;
  return result;
}

export class ClaudeCodeStore implements Store<ClaudeCodeSession> {
  readonly harness = harness;
  readonly root: string;

  /** `$CLAUDE_CONFIG_DIR/projects` when set, else `~/.claude/projects`. */
  static defaultRoot(env: NodeJS.ProcessEnv = process.env): string {
    return defaultClaudeProjectsRoot(env);
  }

  constructor(options: ClaudeCodeStoreOptions = {}) {
    this.root = path.resolve(
      options.root ?? ClaudeCodeStore.defaultRoot(options.env ?? process.env),
    );
  }

  async *discover(onSkip?: (skipped: SkippedFile) => void): AsyncIterable<Discovered> {
    const turn = eventLoopTurns();
    for (const directory of await this.#projectDirectories()) {
      let entries: import("node:fs").Dirent[];
      try {
        entries = await fs.readdir(directory, { withFileTypes: true });
      } catch (cause) {
        onSkip?.({ path: directory, reason: ioError(cause, directory, "list", harness).message });
        continue;
      }
      for (const entry of entries) {
        if (!entry.isFile() || !entry.name.endsWith(".jsonl")) continue;
        const file = path.join(directory, entry.name);
        await turn();
        try {
          // Synchronous bounded reads of a regular file (core readFileEnds).
          const { head, tail, mtime } = readFileEnds(file, headBytes, headBytes, harness);
          const seen = peekClaudeCodeLines([...head, ...tail]);
          if (!seen.recognized) {
            onSkip?.({
              path: file,
              reason: "not a Claude Code session (no session line in its head)",
            });
            continue;
          }
          const found: Discovered = {
            harness,
            id: entry.name.slice(0, -".jsonl".length),
            path: file,
            updatedAt: mtime.toISOString(),
          };
          if (seen.title !== undefined) found.title = seen.title;
          if (seen.cwd !== undefined) found.cwd = seen.cwd;
          yield found;
        } catch (cause) {
          const error = TxcriptError.isInstance(cause)
            ? cause
            : ioError(cause, file, "read", harness);
          onSkip?.({ path: file, reason: error.message });
        }
      }
    }
  }

  /** The session's file through the one load of a session file (loadClaudeCodeFile). */
  async load(id: string): Promise<ClaudeCodeSession> {
    return loadClaudeCodeFile(await this.locate(id));
  }

  async save(
    session: ClaudeCodeSession,
    options: ClaudeCodeSaveOptions = {},
  ): Promise<{ id: string; path: string }> {
    let sessionId: string | undefined;
    let cwd: string | undefined;
    for (const line of session.lines) {
      const value = line.value;
      if (value === undefined) continue;
      if (
        sessionId === undefined &&
        typeof value.sessionId === "string" &&
        Object.hasOwn(value, "sessionId")
      )
        sessionId = value.sessionId;
      if (cwd === undefined && typeof value.cwd === "string" && Object.hasOwn(value, "cwd"))
        cwd = value.cwd;
      // Lines fromCommon wrote parse their value on demand: stop once both are known.
      if (sessionId !== undefined && cwd !== undefined) break;
    }
    if (sessionId === undefined || !isUuid(sessionId)) {
      throw new TxcriptError("USAGE", "the session has no UUID session id to name its file by", {
        harness,
        hint: "write it with claudeCodeCodec.fromCommon, which maps any id to a UUID",
      });
    }
    const directoryCwd = cwd ?? options.cwd;
    if (directoryCwd === undefined || directoryCwd === "") {
      throw new TxcriptError("USAGE", "the session records no cwd to place it under", {
        harness,
        hint: "set the transcript's meta.cwd, or pass { cwd } to save",
      });
    }
    const target = path.join(this.root, mungeClaudeProjectDir(directoryCwd), `${sessionId}.jsonl`);
    if (!options.overwrite) {
      const elsewhere = (await this.#find(sessionId)).filter((file) => file !== target);
      if (elsewhere.length > 0) {
        throw new TxcriptError(
          "CONFLICT",
          `session ${sessionId} already exists in another project`,
          {
            harness,
            location: { file: elsewhere[0] as string },
            hint: "pass overwrite: true to write a second copy",
          },
        );
      }
    }
    try {
      await fs.mkdir(path.dirname(target), { recursive: true });
    } catch (cause) {
      throw ioError(cause, path.dirname(target), "write", harness);
    }
    // Subagent files first, so a session file on disk always has its subagents beside it;
    // but none at all when the session file itself may not be replaced.
    const { main, files } = splitSubagentFiles(session);
    if (files.length > 0 && !options.overwrite && (await fs.lstat(target).catch(() => undefined))) {
      throw new TxcriptError("CONFLICT", "the target already exists", {
        harness,
        location: { file: target },
        hint: "pass --force (or overwrite: true) to replace it",
      });
    }
    for (const file of files)
      await saveSessionFile(
        path.join(subagentDirectory(target), `agent-${file.agentId}.jsonl`),
        claudeCodeCodec.serialize(file.session),
        { overwrite: options.overwrite === true, root: this.root, harness },
      );
    await writeFileAtomic(target, claudeCodeCodec.serialize(main), {
      overwrite: options.overwrite === true,
      root: this.root,
      harness,
    });
    // An overwritten session keeps no subagent file of the session it replaced.
    if (options.overwrite === true)
      await deleteSubagentFiles(
        subagentDirectory(target),
        new Set(files.map((file) => `agent-${file.agentId}.jsonl`)),
      );
    return { id: sessionId, path: target };
  }

  async delete(id: string): Promise<void> {
    const file = await this.locate(id);
    await deleteSessionFile(file, harness);
    await deleteSubagentFiles(subagentDirectory(file));
  }

  /** The file of session `id`: NOT_FOUND when none, AMBIGUOUS when two projects hold it. */
  async locate(id: string): Promise<string> {
    const files = await this.#find(id);
    if (files.length === 0) {
      throw new TxcriptError("NOT_FOUND", `no Claude Code session ${id}`, {
        harness,
        location: { file: this.root },
      });
    }
    if (files.length > 1) {
      throw new TxcriptError("AMBIGUOUS", `session ${id} exists in ${files.length} projects`, {
        harness,
        location: { file: files[0] as string },
        hint: files.join(", "),
      });
    }
    return files[0] as string;
  }

  async #find(id: string): Promise<string[]> {
    if (!safeId.test(id) || id.includes(".."))
      throw unsafeIdError(id, {
        harness,
        hint: "a session id is a UUID such as 0bdd2740-b6f7-4e7b-b1c9-f159cc83b104",
      });
    const found: string[] = [];
    for (const directory of await this.#projectDirectories()) {
      const file = path.join(directory, `${id}.jsonl`);
      const stat = await fs.lstat(file).catch(() => undefined);
      if (stat?.isFile()) found.push(file);
    }
    return found;
  }

  #projectDirectories(): Promise<string[]> {
    return listDirectories(this.root, harness);
  }
}
