// The Codex rollout store: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<local
// time>-<uuid>.jsonl` (or `.jsonl.zst`), and `archived_sessions/`.
// Discovery reads a bounded head of each file (rollouts pass 1 GB) and takes
// the last event's time from its mtime; titles come from `session_index.jsonl`,
// read once. Saving is atomic and no-clobber, with the mtime set to the last
// event; Codex's SQLite state is never written.
import { promises as fs, statSync } from "node:fs";
import * as path from "node:path";
import {
  type Discovered,
  deleteSessionFile,
  ioError,
  isUuid,
  type LoadContext,
  refuseCopyElsewhere,
  type SaveOptions,
  type SkippedFile,
  type Store,
  saveSessionFile,
  TxcriptError,
  unsafeIdError,
  writeFileAtomic,
} from "@txcript/core";
import { codexCodec } from "./codex-codec.js";
import { parseRolloutFile, reportMissingRollouts, rolloutSessionId } from "./codex-load.js";
import { defaultCodexHome, rolloutIdOf, rolloutRelativePath } from "./codex-paths.js";
import {
  type CodexLinesRollout,
  type CodexRollout,
  harness,
  serializeRollout,
} from "./codex-schema.js";
import {
  type Loose,
  lastEventTime,
  own,
  parsedLines,
  probeRollout,
  readFirstLine,
  readRolloutFile,
  tailBytes,
} from "./codex-store-reads.js";
import { codexSessionPaths } from "./codex-store-root.js";
import { parentThreadOf } from "./codex-subagents.js";

export interface CodexStoreOptions {
  /** The Codex home (`CODEX_HOME`); defaults to CodexStore.defaultRoot(env). */
  root?: string;
  env?: Record<string, string | undefined>;
}

export type CodexSaveOptions = SaveOptions;

/** What saves of one session added: the rollout, the first directory made for it, session_index.jsonl lines. */
interface Written {
  file: string;
  directory: string | undefined;
  entries: string[];
  /** Whether a save created session_index.jsonl. */
  createdIndex: boolean;
}

/** The outermost ancestor of `directory` (itself included) that does not exist yet, if any. */
async function firstMissing(directory: string): Promise<string | undefined> {
  let missing: string | undefined;
  for (let at = directory; ; at = path.dirname(at)) {
    if ((await fs.stat(at).catch(() => undefined)) !== undefined) return missing;
    missing = at;
    if (path.dirname(at) === at) return missing;
  }
}

const sessionDirectories = ["sessions", "archived_sessions"];
/** Discovery reads synchronously and gives the event loop a turn after each slice of this many milliseconds. */
const sliceMs = 8;

export class CodexStore implements Store<CodexRollout> {
  readonly harness = harness;
  /** The Codex home: sessions live under `<root>/sessions`. */
  readonly root: string;
  /** What discover reads: the rollouts, archived or not, and the thread names (not logs or history). */
  readonly sessionPaths = codexSessionPaths;

  /** `$CODEX_HOME` when set, else `~/.codex`. */
  static defaultRoot(env: Record<string, string | undefined> = process.env): string {
    return defaultCodexHome(env);
  }

  constructor(options: CodexStoreOptions = {}) {
    this.root = path.resolve(options.root ?? CodexStore.defaultRoot(options.env ?? process.env));
  }

  async *discover(onSkip?: (skipped: SkippedFile) => void): AsyncIterable<Discovered> {
    const titles = await this.#titles();
    let sliceEnd = performance.now() + sliceMs;
    for (const file of await this.#rolloutFiles(onSkip)) {
      if (performance.now() >= sliceEnd) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceEnd = performance.now() + sliceMs;
      }
      const probe = probeRollout(file);
      if ("skip" in probe) {
        onSkip?.({ path: file, reason: probe.skip });
        continue;
      }
      const { seen, mtime } = probe;
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
        updatedAt: mtime.toISOString(),
      };
      const title = titles.get(found.id) ?? seen.prompt;
      if (title !== undefined) found.title = title;
      if (seen.cwd !== undefined) found.cwd = seen.cwd;
      yield found;
    }
  }

  /** The rollout of session `id`, with the rollouts of the subagents it spawned (found by their parent id). */
  async load(id: string): Promise<CodexRollout> {
    return this.loadFile(await this.locate(id));
  }

  /**
   * The rollout in `file` (a file of this store), with the rollouts of the
   * subagents it spawned; each spawned agent whose rollout is not here is a
   * named loss through `context.onWarning` (codex-load.ts).
   */
  async loadFile(file: string, context: Partial<LoadContext> = {}): Promise<CodexRollout> {
    const rollout = await parseRolloutFile(file, context);
    if (rollout.kind !== "lines") return rollout;
    const id = rolloutIdOf(path.basename(file)) ?? rolloutSessionId(rollout);
    const subagents = id === undefined ? [] : await this.#children(id, file, 0);
    const loaded = subagents.length === 0 ? rollout : { ...rollout, subagents };
    reportMissingRollouts(
      loaded,
      file,
      context.onWarning === undefined ? undefined : { onWarning: context.onWarning },
    );
    return loaded;
  }

  /** Whether the rollout in `file` has a subagent rollout in this store (then it is not read alone). */
  async hasChildren(file: string): Promise<boolean> {
    const id = rolloutIdOf(path.basename(file));
    if (id === undefined) return false;
    const stamp = path.basename(file).slice("rollout-".length, "rollout-".length + 19);
    for (const other of await this.#rolloutFiles()) {
      if (other === file) continue;
      if (path.basename(other).slice("rollout-".length, "rollout-".length + 19) < stamp) continue;
      if (this.#parentOf(other) === id) return true;
    }
    return false;
  }

  /**
   * Rollouts whose session_meta names `id` as their parent thread, each with
   * its own children (3 levels at most). Only files named no earlier than the
   * parent are opened, and of each only the first line.
   */
  async #children(id: string, parentFile: string, depth: number): Promise<CodexLinesRollout[]> {
    if (depth >= 3) return [];
    const stamp = path.basename(parentFile).slice("rollout-".length, "rollout-".length + 19);
    const out: CodexLinesRollout[] = [];
    for (const file of await this.#rolloutFiles()) {
      if (file === parentFile) continue;
      if (path.basename(file).slice("rollout-".length, "rollout-".length + 19) < stamp) continue;
      if (this.#parentOf(file) !== id) continue;
      const child = codexCodec.parse(await readRolloutFile(file), { file });
      const childId = rolloutIdOf(path.basename(file));
      if (child.kind !== "lines" || childId === undefined) continue;
      const grandchildren = await this.#children(childId, file, depth + 1);
      out.push(grandchildren.length === 0 ? child : { ...child, subagents: grandchildren });
    }
    return out;
  }

  /**
   * The parent thread (lower case) a rollout's first line names, remembered by the file's
   * identity, size and modification time: loading every session of a store (a search index's
   * first build) would otherwise open the first line of every later rollout once per session.
   */
  #parentOf(file: string): string | undefined {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (stat === undefined) return undefined;
    const stamp = `${stat.ino}|${stat.size}|${stat.mtimeMs}`;
    const known = this.#parents.get(file);
    if (known !== undefined && known.stamp === stamp) return known.parent;
    const parent = parentThreadOf(readFirstLine(file))?.toLowerCase();
    this.#parents.set(file, { stamp, parent });
    return parent;
  }

  readonly #parents = new Map<string, { stamp: string; parent: string | undefined }>();

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
    if (!options.overwrite)
      refuseCopyElsewhere(await this.#find(sessionId), target, { id: sessionId, harness });
    const text = serializeRollout(rollout);
    // Codex's listing shows the file's mtime as the session's last update.
    const last = lastEventTime(text.slice(-tailBytes));
    const before = this.#written.get(sessionId);
    const written: Written =
      before?.file === target
        ? before
        : {
            file: target,
            directory: await firstMissing(path.dirname(target)),
            entries: [],
            createdIndex: false,
          };
    await saveSessionFile(target, text, {
      overwrite: options.overwrite === true,
      root: this.root,
      harness,
      ...(last === undefined ? {} : { mtime: new Date(last) }),
    });
    this.#written.set(sessionId, written);
    if (rollout.title !== undefined && rollout.title.trim() !== "") {
      const entry = `${JSON.stringify({ id: sessionId, thread_name: rollout.title, updated_at: last ?? timestamp })}\n`;
      const index = path.join(this.root, "session_index.jsonl");
      const existed = (await fs.stat(index).catch(() => undefined)) !== undefined;
      try {
        await fs.appendFile(index, entry, "utf8");
      } catch (cause) {
        throw ioError(cause, index, "write", harness);
      }
      written.entries.push(entry);
      written.createdIndex ||= !existed;
    }
    return { id: sessionId, path: target };
  }

  /**
   * Removes session `id`'s rollout. When this store saved it (a `continue` whose read-back
   * failed), also what that save added: its session_index.jsonl line (the file itself when the
   * save created it and nothing else is in it) and the dated directories it created, if empty.
   */
  async delete(id: string): Promise<void> {
    const file = await this.locate(id);
    await deleteSessionFile(file, harness);
    const written = this.#written.get(id.toLowerCase());
    if (written === undefined || written.file !== file) return;
    this.#written.delete(id.toLowerCase());
    if (written.entries.length > 0) await this.#unindex(written);
    if (written.directory === undefined) return;
    // Only empty directories go (rmdir refuses the others), from the file's up to the first one save made.
    for (let directory = path.dirname(file); ; directory = path.dirname(directory)) {
      if (
        !(await fs.rmdir(directory).then(
          () => true,
          () => false,
        ))
      )
        return;
      if (directory === written.directory) return;
    }
  }

  /** Takes the lines saves appended out of session_index.jsonl again (the last copy of each). */
  async #unindex(written: Written): Promise<void> {
    const file = path.join(this.root, "session_index.jsonl");
    let text: string;
    try {
      text = await fs.readFile(file, "utf8");
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === "ENOENT") return;
      throw ioError(cause, file, "read", harness);
    }
    let rest = text;
    for (const entry of written.entries) {
      const at = rest.lastIndexOf(entry);
      if (at === -1 || (at > 0 && rest[at - 1] !== "\n")) continue;
      rest = rest.slice(0, at) + rest.slice(at + entry.length);
    }
    if (rest === text) return;
    try {
      if (rest === "" && written.createdIndex) await fs.unlink(file);
      else await writeFileAtomic(file, rest, { overwrite: true, root: this.root, harness });
    } catch (cause) {
      throw TxcriptError.isInstance(cause) ? cause : ioError(cause, file, "write", harness);
    }
  }

  /** What save wrote, by session id: delete takes it back. */
  readonly #written = new Map<string, Written>();

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
      throw unsafeIdError(id, {
        harness,
        what: "Codex session id",
        hint: "a Codex session id is a UUID such as 019a93b9-f380-7600-98ff-940e6b99603c",
      });
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
