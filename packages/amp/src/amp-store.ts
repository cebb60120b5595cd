// AmpStore: the local-first Amp CLI's threads directory, one
// `<T-id>.json` per thread. Discovery reads only a small head of each file
// (the `v` sniff, title, cwd; the message count when that is the whole
// file); writes are atomic and never clobber unless asked. Current Amp
// builds do not read this directory: it is for era-matched CLIs and for
// archives.
import * as fsSync from "node:fs";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  assertInside,
  type Discovered,
  ioError,
  type SaveOptions,
  type SkippedFile,
  type Store,
  TxcriptError,
  writeFileAtomic,
} from "@txcript/core";
import { ampCodec } from "./amp-codec.js";
import { assertSafeThreadId, isAmpThreadId } from "./amp-ids.js";
import { scanThreadStart, type ThreadHead } from "./amp-scan.js";
import type { AmpThread } from "./amp-schema.js";
import { ampThreadsDir } from "./amp-store-root.js";

export interface AmpStoreOptions {
  /** The threads directory; default `AmpStore.defaultRoot(env)`. */
  root?: string;
  /** Environment to resolve the default root from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Bytes first read from each file during discovery. Both Amp writers put
 * the small keys (v, id, created, title, env) before `messages`, where they
 * take well under 16 KiB, so listing costs about the same for a 2 KB thread
 * as for a 50 MB one. Messages are counted only when the head is the whole
 * file: counting costs a walk over every byte of the array.
 */
const headBytes = 16 * 1024;
/** The most read from one file when the small keys are not all in the first head. */
const maxHeadBytes = 256 * 1024;
/**
 * Discovery reads synchronously (a few system calls per file, several times
 * cheaper than promise round trips through the thread pool) and gives the
 * event loop a turn after each slice of this many milliseconds.
 */
const sliceMs = 8;
/** Opening never blocks, so a FIFO that replaced a file is refused, not waited on. */
const openFlags = fsSync.constants.O_RDONLY | (fsSync.constants.O_NONBLOCK ?? 0);

const decoder = new TextDecoder("utf-8", { fatal: false });
/** Reused by every head read (the reads are synchronous, so never shared). */
const headBuffer = Buffer.allocUnsafe(headBytes);

/** What discovery learned from one file: its facts and mtime, or why it is skipped. */
type Probe = { facts: ThreadHead | undefined; mtime: Date } | { skip: string };

/** The first prefix of a head that is decoded and scanned; the small keys usually end by ~1 KiB. */
const firstScanBytes = 4 * 1024;

/**
 * The facts of the head of `file`. Reads `headBytes` (the whole of a small
 * file, whose messages are then counted); of a larger file, scans a 4 KiB
 * prefix, then the whole head, then re-reads four times as much (at most
 * `maxHeadBytes`) while the scan stopped before reaching `messages`. Every
 * step scans a prefix of the next, so a step that reached `messages` knows
 * every key a longer head would show before it. A multi-byte character cut
 * at the end of a head is dropped, as core's readHead does.
 */
function probe(file: string): Probe {
  let descriptor: number | undefined;
  try {
    descriptor = fsSync.openSync(file, openFlags);
    const stat = fsSync.fstatSync(descriptor);
    if (!stat.isFile()) return { skip: "not a regular file" };
    let buffer = headBuffer;
    let asked = Math.min(headBytes, stat.size);
    let have = fsSync.readSync(descriptor, buffer, 0, asked, 0);
    let want = have >= stat.size ? have : Math.min(firstScanBytes, have);
    for (;;) {
      // The whole file: the messages array, if it closes, closes in here.
      const whole = want >= stat.size;
      const text = decoder.decode(buffer.subarray(0, want)).replace(/\uFFFD$/, "");
      const scan = scanThreadStart(text, { countMessages: whole });
      // Done when nothing before `messages` is missing, or there is no more to read.
      if (scan.settled || whole || (want === have && have < asked) || want >= maxHeadBytes)
        return { facts: scan.head, mtime: stat.mtime };
      if (want < have) want = have;
      else {
        asked = Math.min(want * 4, maxHeadBytes, stat.size);
        buffer = Buffer.allocUnsafe(asked);
        have = fsSync.readSync(descriptor, buffer, 0, asked, 0);
        want = have;
      }
    }
  } catch (cause) {
    return { skip: `unreadable: ${(cause as Error).message}` };
  } finally {
    if (descriptor !== undefined)
      try {
        fsSync.closeSync(descriptor);
      } catch {
        // Nothing was written through it: a failed close loses nothing.
      }
  }
}

function symbolicLink(file: string, action: "read" | "delete"): TxcriptError {
  return new TxcriptError("UNSAFE_PATH", `refusing to ${action} a thread through a symbolic link`, {
    harness: "amp",
    location: { file },
  });
}

function notRegular(file: string, action: "read" | "delete"): TxcriptError {
  return new TxcriptError(
    "IO",
    `refusing to ${action} ${file}: not a regular file (a FIFO, directory or device named like a thread)`,
    { harness: "amp", location: { file } },
  );
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
    return ampThreadsDir(env, platform);
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
    let sliceEnd = performance.now() + sliceMs;
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
      if (performance.now() >= sliceEnd) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceEnd = performance.now() + sliceMs;
      }
      const found = probe(file);
      if ("skip" in found) {
        skip(found.skip);
        continue;
      }
      const facts = found.facts;
      if (facts?.v === undefined) {
        skip("not an Amp thread: no top-level `v` revision counter");
        continue;
      }
      const discovered: Discovered = {
        harness: "amp",
        id,
        path: file,
        updatedAt: found.mtime.toISOString(),
      };
      if (facts.title !== undefined) discovered.title = facts.title;
      if (facts.cwd !== undefined) discovered.cwd = facts.cwd;
      if (facts.messageCount !== undefined) discovered.messageCount = facts.messageCount;
      yield discovered;
    }
  }

  /**
   * Reads thread `id`. Refuses a symbolic link (UNSAFE_PATH) and anything
   * but a regular file (IO): the file is opened without following a link and
   * without blocking, then checked through the open descriptor, so a FIFO or
   * device named like a thread is refused, never waited on, and a file
   * swapped in between the check and the read is not the one read.
   */
  async load(id: string): Promise<AmpThread> {
    const file = this.pathOf(id);
    let handle: import("node:fs/promises").FileHandle;
    try {
      handle = await fs.open(file, openFlags | (fsSync.constants.O_NOFOLLOW ?? 0));
    } catch (cause) {
      // O_NOFOLLOW makes open fail with ELOOP on a link; lstat names it plainly.
      const link = await fs.lstat(file).then(
        (stat) => stat.isSymbolicLink(),
        () => false,
      );
      if (link) throw symbolicLink(file, "read");
      throw ioError(cause, file, "read", "amp");
    }
    let text: string;
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw notRegular(file, "read");
      text = await handle.readFile({ encoding: "utf8" });
    } catch (cause) {
      if (TxcriptError.isInstance(cause)) throw cause;
      throw ioError(cause, file, "read", "amp");
    } finally {
      await handle.close().catch(() => undefined);
    }
    return ampCodec.parse(text, { file });
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

  /**
   * Deletes thread `id`'s file. Only a regular file is deleted: a symbolic
   * link (UNSAFE_PATH) or a FIFO, directory or device (IO) named like a
   * thread is not this store's to remove. (unlink never follows a link nor
   * blocks; the lstat is the check, not a guard against a swap after it.)
   */
  async delete(id: string): Promise<void> {
    const file = this.pathOf(id);
    const stat = await fs.lstat(file).catch((cause: unknown) => {
      throw ioError(cause, file, "delete", "amp");
    });
    if (stat.isSymbolicLink()) throw symbolicLink(file, "delete");
    if (!stat.isFile()) throw notRegular(file, "delete");
    await fs.unlink(file).catch((cause: unknown) => {
      throw ioError(cause, file, "delete", "amp");
    });
  }
}
