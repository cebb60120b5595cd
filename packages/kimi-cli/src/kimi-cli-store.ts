// The Kimi CLI session store: `<share dir>/sessions/<md5 of the work dir>/
// <session id>/context.jsonl` (share dir `$KIMI_SHARE_DIR`, else ~/.kimi),
// and, from releases before 2025-11-25, `<md5>/<session id>.jsonl`. The work
// dir behind a hash is in `<share dir>/kimi.json` (work_dirs[].path). A
// session is known by its directory's name, as `kimi --session <id>` finds
// it; discovery reads a bounded head of each file, never a whole session.
// Saving writes context.jsonl (atomic, never clobbering), state.json's title,
// and the work dir's kimi.json entry Kimi CLI needs to find the session.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  type Discovered,
  ioError,
  isJsonObject,
  type Json,
  type LoadContext,
  listDirectories,
  oneSessionFile,
  readHead,
  refuseCopyElsewhere,
  type SaveOptions,
  type SkippedFile,
  type Store,
  saveSessionFile,
  stringifyJson,
  TxcriptError,
  unsafeIdError,
  writeFileAtomic,
} from "@txcript/core";
import { kimiCliCodec } from "./kimi-cli-codec.js";
import {
  loadKimiSession,
  placeOf,
  readSmallFile,
  smallFileBytes,
  titleOf,
  workDirsOf,
} from "./kimi-cli-load.js";
import { isKimiSessionId, kimiWorkDirHash } from "./kimi-cli-paths.js";
import { compactionPrefix, harness, type KimiCliSession, recordOf } from "./kimi-cli-schema.js";
import { defaultKimiRoot, kimiSessionPaths } from "./kimi-cli-store-root.js";
import { txcriptMetaOf } from "./kimi-cli-to-common.js";

export interface KimiCliStoreOptions {
  /** The share directory holding sessions/ and kimi.json; defaults to KimiCliStore.defaultRoot(env). */
  root?: string;
  env?: NodeJS.ProcessEnv;
}

export interface KimiCliSaveOptions extends SaveOptions {
  /** The work dir when the session records none. */
  cwd?: string;
}

const headBytes = 65_536;

function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** What a context file's head says: whether it holds a message, and the first prompt's text. */
function readHeadLines(text: string): { message: boolean; broken: boolean; title?: string } {
  const head: { message: boolean; broken: boolean; title?: string } = {
    message: false,
    broken: false,
  };
  for (const line of text.split("\n")) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // Kimi CLI lists a file with a line it cannot parse (is_empty says "not empty"); so does txcript, and load names the line.
      if (line.trim() !== "") head.broken = true;
      continue;
    }
    if (!isJsonObject(value)) continue;
    const record = recordOf(value);
    if (record.kind !== "message") continue;
    head.message = true;
    if (value.role !== "user") continue;
    const content = value.content;
    const parts =
      typeof content === "string"
        ? [content]
        : Array.isArray(content)
          ? content.map((part) =>
              isJsonObject(part) && part.type === "text" && typeof part.text === "string"
                ? part.text
                : "",
            )
          : [];
    const prompt = parts
      .filter(
        (part) =>
          !part.startsWith("<system>") &&
          !part.startsWith("<system-reminder>") &&
          part !== compactionPrefix,
      )
      .join(" ");
    if (prompt.trim() !== "") {
      head.title = oneLine(prompt);
      break;
    }
  }
  return head;
}

interface Candidate {
  id: string;
  file: string;
  workDirHash: string;
  sessionDirectory?: string;
}

export class KimiCliStore implements Store<KimiCliSession> {
  readonly harness = harness;
  readonly root: string;
  readonly sessionPaths = [...kimiSessionPaths];

  static defaultRoot(env: NodeJS.ProcessEnv = process.env): string {
    return defaultKimiRoot(env);
  }

  constructor(options: KimiCliStoreOptions = {}) {
    this.root = path.resolve(options.root ?? defaultKimiRoot(options.env ?? process.env));
  }

  async *discover(onSkip?: (skipped: SkippedFile) => void): AsyncIterable<Discovered> {
    const workDirs = await workDirsOf(this.root);
    for (const candidate of await this.#candidates(onSkip)) {
      const { file } = candidate;
      try {
        const stat = await fs.lstat(file);
        // An empty session (Kimi CLI makes one at every start and lists none) is not a session to report.
        if (stat.size === 0) continue;
        const text = await readHead(file, headBytes);
        const head = readHeadLines(text);
        // A first line longer than the head (a long system prompt) cannot be read from it: listed without a title.
        const cut = stat.size > text.length;
        // Only bookkeeping lines: Kimi CLI lists no such session, and it is nothing to report.
        if (!head.message && !head.broken && !cut) continue;
        const found: Discovered = {
          harness,
          id: candidate.id,
          path: file,
          updatedAt: stat.mtime.toISOString(),
        };
        const title =
          candidate.sessionDirectory === undefined
            ? undefined
            : await titleOf(candidate.sessionDirectory);
        if (title !== undefined) found.title = title;
        else if (head.title !== undefined) found.title = head.title;
        const cwd = workDirs.get(candidate.workDirHash);
        if (cwd !== undefined) found.cwd = cwd;
        yield found;
      } catch (cause) {
        onSkip?.({ path: file, reason: ioError(cause, file, "read", harness).message });
      }
    }
  }

  async load(id: string): Promise<KimiCliSession> {
    return this.loadFile(await this.locate(id), { environment: {} });
  }

  /** The session whose context file is `file` (kimi-cli-load.ts). */
  loadFile(file: string, context: LoadContext): Promise<KimiCliSession> {
    return loadKimiSession(file, context);
  }

  /** The context file a session is saved to: sessions/<md5 of its work dir>/<id>/context.jsonl. */
  target(
    session: KimiCliSession,
    cwd?: string,
  ): { id: string; path: string; cwd: string; title?: string } {
    // What the session's directory said when it was loaded, else what txcript wrote on its first line.
    const written = txcriptMetaOf(session);
    const id = session.info?.id ?? written.sessionId;
    if (id === undefined || !isKimiSessionId(id))
      throw new TxcriptError("USAGE", "the session has no id Kimi CLI can name its directory by", {
        harness,
        hint: "write it with kimiCliCodec.fromCommon, which gives it a UUID",
      });
    const workDir = session.info?.cwd ?? written.cwd ?? cwd;
    if (workDir === undefined || workDir === "")
      throw new TxcriptError("USAGE", "the session records no work dir to place it under", {
        harness,
        hint: "set the transcript's meta.cwd, or pass { cwd } to save",
      });
    // Kimi CLI keys a work dir by its canonical path (absolute, normalized, links kept).
    const resolved = path.resolve(workDir);
    const title = session.info?.title ?? written.title;
    return {
      id,
      cwd: resolved,
      ...(title === undefined ? {} : { title }),
      path: path.join(this.root, "sessions", kimiWorkDirHash(resolved), id, "context.jsonl"),
    };
  }

  async save(
    session: KimiCliSession,
    options: KimiCliSaveOptions = {},
  ): Promise<{ id: string; path: string }> {
    const { id, path: file, cwd, title } = this.target(session, options.cwd);
    if (!options.overwrite) refuseCopyElsewhere(await this.#find(id), file, { id, harness });
    const metadata = await this.#metadataWith(cwd);
    await saveSessionFile(file, kimiCliCodec.serialize(session), {
      overwrite: options.overwrite === true,
      root: this.root,
      harness,
    });
    if (title !== undefined)
      await writeFileAtomic(
        path.join(path.dirname(file), "state.json"),
        `${stringifyJson({ custom_title: title }, 2, harness)}\n`,
        {
          overwrite: true,
          root: this.root,
          harness,
        },
      );
    if (metadata !== undefined)
      await writeFileAtomic(
        path.join(this.root, "kimi.json"),
        `${stringifyJson(metadata, 2, harness)}\n`,
        {
          overwrite: true,
          root: this.root,
          harness,
        },
      );
    return { id, path: file };
  }

  /** kimi.json with an entry for `cwd` added (undefined when it has one): Session.find looks a session up through it. */
  async #metadataWith(cwd: string): Promise<Record<string, Json> | undefined> {
    const file = path.join(this.root, "kimi.json");
    let metadata: Record<string, Json> = {};
    let stat: import("node:fs").Stats | undefined;
    try {
      stat = await fs.lstat(file);
    } catch {}
    if (stat !== undefined) {
      const text = await readSmallFile(file, smallFileBytes);
      let value: unknown;
      try {
        value = text === undefined ? undefined : JSON.parse(text);
      } catch {}
      const workDirs = isJsonObject(value) ? value.work_dirs : undefined;
      if (!isJsonObject(value) || !(workDirs === undefined || Array.isArray(workDirs)))
        throw new TxcriptError(
          "INVALID_DOCUMENT",
          "kimi.json is not Kimi CLI's metadata: refusing to rewrite it",
          {
            harness,
            location: { file },
            hint: 'expected a regular file holding {"work_dirs": [...]}',
          },
        );
      metadata = value;
    }
    const entries = Array.isArray(metadata.work_dirs) ? metadata.work_dirs : [];
    const known = entries.some(
      (entry) => isJsonObject(entry) && entry.path === cwd && (entry.kaos ?? "local") === "local",
    );
    if (known) return undefined;
    return {
      ...metadata,
      work_dirs: [...entries, { path: cwd, kaos: "local", last_session_id: null }],
    };
  }

  async delete(id: string): Promise<void> {
    const file = await this.locate(id);
    const place = placeOf(file);
    try {
      if (place?.sessionDirectory !== undefined)
        await fs.rm(place.sessionDirectory, { recursive: true });
      else await fs.unlink(file);
    } catch (cause) {
      throw ioError(cause, file, "delete", harness);
    }
  }

  /** The context file of session `id`: NOT_FOUND when none, AMBIGUOUS when two work dirs hold it. */
  async locate(id: string): Promise<string> {
    return oneSessionFile(await this.#find(id), {
      id,
      harness,
      name: "Kimi CLI",
      store: path.join(this.root, "sessions"),
      places: "work dirs",
    });
  }

  async #find(id: string): Promise<string[]> {
    if (!isKimiSessionId(id))
      throw unsafeIdError(id, {
        harness,
        hint: "a Kimi CLI session id is a directory name such as 4d0f3a5e-1c2b-4e8f-9a6d-7b5c3e1f2a90",
      });
    const found: string[] = [];
    for (const hashDirectory of await listDirectories(path.join(this.root, "sessions"), harness)) {
      for (const file of [
        path.join(hashDirectory, id, "context.jsonl"),
        path.join(hashDirectory, `${id}.jsonl`),
      ]) {
        try {
          // lstat: a link out of the store, or a FIFO, is not a session; nor is a session directory that is a link.
          if (!(await fs.lstat(file)).isFile()) continue;
          if (
            path.basename(file) === "context.jsonl" &&
            !(await fs.lstat(path.dirname(file))).isDirectory()
          )
            continue;
          found.push(file);
          break;
        } catch {}
      }
    }
    return found;
  }

  async #candidates(onSkip?: (skipped: SkippedFile) => void): Promise<Candidate[]> {
    const candidates: Candidate[] = [];
    for (const hashDirectory of await listDirectories(path.join(this.root, "sessions"), harness)) {
      let entries: import("node:fs").Dirent[];
      try {
        entries = await fs.readdir(hashDirectory, { withFileTypes: true });
      } catch (cause) {
        onSkip?.({
          path: hashDirectory,
          reason: ioError(cause, hashDirectory, "list", harness).message,
        });
        continue;
      }
      const workDirHash = path.basename(hashDirectory);
      const directories = new Set(
        entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name),
      );
      for (const entry of entries) {
        if (entry.isDirectory() && isKimiSessionId(entry.name)) {
          const sessionDirectory = path.join(hashDirectory, entry.name);
          const file = path.join(sessionDirectory, "context.jsonl");
          try {
            if (!(await fs.lstat(file)).isFile()) {
              onSkip?.({ path: file, reason: "context.jsonl is not a regular file" });
              continue;
            }
          } catch {
            continue;
          }
          candidates.push({ id: entry.name, file, workDirHash, sessionDirectory });
        } else if (entry.isFile() && entry.name.endsWith(".jsonl")) {
          // A legacy <id>.jsonl; Kimi CLI moves it into <id>/context.jsonl when it finds it.
          const id = entry.name.slice(0, -".jsonl".length);
          if (isKimiSessionId(id) && !directories.has(id))
            candidates.push({ id, file: path.join(hashDirectory, entry.name), workDirHash });
        }
      }
    }
    return candidates.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  }
}
