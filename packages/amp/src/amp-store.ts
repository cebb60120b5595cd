// AmpStore: the local-first Amp CLI's threads directory, one
// `<T-id>.json` per thread. Discovery reads only each file's head (the `v`
// sniff, title, created, cwd, message count when the head holds them all);
// writes are atomic and never clobber unless asked. Current Amp builds do
// not read this directory: it is for era-matched CLIs and for archives.
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  assertInside,
  type Discovered,
  ioError,
  readHead,
  readTextFile,
  type SaveOptions,
  type SkippedFile,
  type Store,
  TxcriptError,
  writeFileAtomic,
} from "@txcript/core";
import { ampCodec } from "./amp-codec.js";
import { assertSafeThreadId, isAmpThreadId } from "./amp-ids.js";
import { scanThreadHead } from "./amp-scan.js";
import type { AmpThread } from "./amp-schema.js";

export interface AmpStoreOptions {
  /** The threads directory; default `AmpStore.defaultRoot(env)`. */
  root?: string;
  /** Environment to resolve the default root from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** Bytes read from each file during discovery. */
const headBytes = 256 * 1024;

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

export class AmpStore implements Store<AmpThread> {
  readonly harness = "amp";
  readonly root: string;

  constructor(options: AmpStoreOptions = {}) {
    this.root = path.resolve(options.root ?? AmpStore.defaultRoot(options.env ?? process.env));
  }

  /**
   * `AMP_THREADS_DIR`, else `$XDG_DATA_HOME/amp/threads` (an absolute
   * XDG_DATA_HOME, not on Windows), else `~/.local/share/amp/threads`.
   */
  static defaultRoot(
    env: NodeJS.ProcessEnv = process.env,
    platform: NodeJS.Platform = process.platform,
  ): string {
    const explicit = nonEmpty(env.AMP_THREADS_DIR);
    if (explicit !== undefined) return path.resolve(explicit);
    const xdg = nonEmpty(env.XDG_DATA_HOME);
    if (platform !== "win32" && xdg !== undefined && path.isAbsolute(xdg))
      return path.join(xdg, "amp", "threads");
    const home =
      nonEmpty(platform === "win32" ? (env.USERPROFILE ?? env.HOME) : env.HOME) ?? os.homedir();
    return path.join(home, ".local", "share", "amp", "threads");
  }

  /** The file of thread `id`, after the id passed the path-safety check. */
  pathOf(id: string): string {
    assertSafeThreadId(id);
    const file = path.join(this.root, `${id}.json`);
    assertInside(this.root, file, "amp");
    return file;
  }

  async *discover(onSkip?: (skipped: SkippedFile) => void): AsyncIterable<Discovered> {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await fs.readdir(this.root, { withFileTypes: true });
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === "ENOENT") return;
      throw ioError(cause, this.root, "list", "amp");
    }
    const names = entries
      .filter((entry) => entry.name.endsWith(".json"))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of names) {
      const file = path.join(this.root, entry.name);
      const skip = (reason: string) => onSkip?.({ path: file, reason });
      if (!entry.isFile()) {
        skip(entry.isSymbolicLink() ? "a symbolic link, not a thread file" : "not a regular file");
        continue;
      }
      const id = entry.name.slice(0, -".json".length);
      if (!isAmpThreadId(id)) {
        skip("the file name is not an Amp thread id (T- + a lowercase UUID)");
        continue;
      }
      let head: string;
      let stat: import("node:fs").Stats;
      try {
        stat = await fs.stat(file);
        head = await readHead(file, headBytes);
      } catch (cause) {
        skip(`unreadable: ${(cause as Error).message}`);
        continue;
      }
      const facts = scanThreadHead(head);
      if (facts?.v === undefined) {
        skip("not an Amp thread: no top-level `v` revision counter");
        continue;
      }
      const found: Discovered = {
        harness: "amp",
        id,
        path: file,
        updatedAt: stat.mtime.toISOString(),
      };
      if (facts.title !== undefined) found.title = facts.title;
      if (facts.cwd !== undefined) found.cwd = facts.cwd;
      if (facts.messageCount !== undefined) found.messageCount = facts.messageCount;
      yield found;
    }
  }

  async load(id: string): Promise<AmpThread> {
    const file = this.pathOf(id);
    const stat = await fs.lstat(file).catch((cause: unknown) => {
      throw ioError(cause, file, "read", "amp");
    });
    if (stat.isSymbolicLink())
      throw new TxcriptError("UNSAFE_PATH", "refusing to read a thread through a symbolic link", {
        harness: "amp",
        location: { file },
      });
    return ampCodec.parse(await readTextFile(file, { harness: "amp" }), { file });
  }

  async save(native: AmpThread, options: SaveOptions = {}): Promise<{ id: string; path: string }> {
    const id = native.document.id;
    if (typeof id !== "string")
      throw new TxcriptError("INVALID_DOCUMENT", "the thread has no string id to name its file", {
        harness: "amp",
        location: { path: "$.id" },
      });
    const file = this.pathOf(id);
    await fs.mkdir(this.root, { recursive: true }).catch((cause: unknown) => {
      throw ioError(cause, this.root, "write", "amp");
    });
    await writeFileAtomic(file, ampCodec.serialize(native), {
      overwrite: options.overwrite === true,
      root: this.root,
      harness: "amp",
    });
    return { id, path: file };
  }

  async delete(id: string): Promise<void> {
    const file = this.pathOf(id);
    await fs.unlink(file).catch((cause: unknown) => {
      throw ioError(cause, file, "delete", "amp");
    });
  }
}
