// The Cursor CLI chats directory as a txcript store, read-only: discover
// lists each `<workspace hash>/<chat id>/store.db` (regular files only,
// found with lstat; no link is followed) with its title, cwd and time, read
// from the meta row and the root node alone; load walks one chat's tree.
// save and delete are refused: txcript does not write Cursor's store, since
// the program cannot be had here to check a written one.
import { createHash } from "node:crypto";
import { lstat, readdir } from "node:fs/promises";
import * as path from "node:path";
import {
  type Discovered,
  ioError,
  type SkippedFile,
  type Store,
  TxcriptError,
  unsafeIdError,
} from "@txcript/core";
import { readCursorCliDatabase, readCursorCliHead } from "./cursor-cli-database.js";
import {
  type CursorCliEnvironment,
  defaultCursorCliRoot,
  isCursorChatId,
  workspaceHashPattern,
} from "./cursor-cli-paths.js";
import { type CursorCliChat, harness } from "./cursor-cli-schema.js";
import { createdAtTime, workspacePath } from "./cursor-cli-to-common.js";

export interface CursorCliStoreOptions {
  /** The chats directory (default: $CURSOR_CONFIG_DIR/chats, else ~/.cursor/chats). */
  root?: string;
  env?: CursorCliEnvironment;
}

async function directories(directory: string): Promise<string[]> {
  try {
    const entries = await readdir(directory, { withFileTypes: true });
    // Dirent types come from lstat semantics: a link to a directory is not a directory here.
    return entries
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw ioError(cause, directory, "list", harness);
  }
}

/** The modification time of `file`, or 0 when it is absent or not a regular file. */
async function mtime(file: string): Promise<number> {
  try {
    const stat = await lstat(file);
    return stat.isFile() ? stat.mtimeMs : 0;
  } catch {
    return 0;
  }
}

export class CursorCliStore implements Store<CursorCliChat> {
  readonly harness = harness;
  readonly root: string;

  constructor(options: CursorCliStoreOptions = {}) {
    this.root = path.resolve(options.root ?? defaultCursorCliRoot(options.env));
  }

  /** The store.db of each chat: `[workspace hash, chat id, file]`, regular files only. */
  async *#chats(onSkip?: (skipped: SkippedFile) => void): AsyncGenerator<[string, string, string]> {
    for (const workspace of await directories(this.root)) {
      if (!workspaceHashPattern.test(workspace)) continue;
      for (const chat of await directories(path.join(this.root, workspace))) {
        const file = path.join(this.root, workspace, chat, "store.db");
        let kind: string;
        try {
          const stat = await lstat(file);
          kind = stat.isFile()
            ? "file"
            : stat.isSymbolicLink()
              ? "a symbolic link"
              : "not a regular file";
        } catch {
          continue;
        }
        if (kind !== "file") onSkip?.({ path: file, reason: `store.db is ${kind}` });
        else if (!isCursorChatId(chat))
          onSkip?.({ path: file, reason: "the chat directory's name is not a chat id" });
        else yield [workspace, chat, file];
      }
    }
  }

  async *discover(onSkip?: (skipped: SkippedFile) => void): AsyncIterable<Discovered> {
    for await (const [workspace, id, file] of this.#chats(onSkip)) {
      let head: Awaited<ReturnType<typeof readCursorCliHead>>;
      try {
        head = await readCursorCliHead(file);
      } catch (error) {
        if (!TxcriptError.isInstance(error)) throw error;
        onSkip?.({ path: file, reason: error.message });
        continue;
      }
      // Cursor's own chat list leaves out a chat whose latestRootBlobId is empty.
      if (head.rootBlobId === "") continue;
      const changed = Math.max(await mtime(file), await mtime(`${file}-wal`));
      const found: Discovered = {
        harness,
        id,
        path: file,
        updatedAt: new Date(
          changed || Date.parse(createdAtTime(head.meta.createdAt) ?? "1970-01-01T00:00:00.000Z"),
        ).toISOString(),
        messageCount: head.messageCount,
      };
      if (typeof head.meta.name === "string") found.title = head.meta.name;
      const cwd =
        head.workspaceUris[0] === undefined ? undefined : workspacePath(head.workspaceUris[0]);
      // The directory is named by the md5 of the workspace path: a cwd that does not hash to it is not trusted.
      if (cwd !== undefined && createHash("md5").update(cwd).digest("hex") === workspace)
        found.cwd = cwd;
      yield found;
    }
  }

  /** The store.db of chat `id` (its directory may be under any workspace). */
  async locate(id: string): Promise<string> {
    if (!isCursorChatId(id)) throw unsafeIdError(id, { harness, what: "Cursor CLI chat id" });
    for await (const [, chat, file] of this.#chats()) if (chat === id) return file;
    throw new TxcriptError("NOT_FOUND", `no Cursor CLI chat ${id} under ${this.root}`, {
      harness,
      location: { file: this.root },
      hint: "`txcript list --from cursor_cli` lists the chats",
    });
  }

  async load(id: string): Promise<CursorCliChat> {
    return readCursorCliDatabase(await this.locate(id), id);
  }

  async save(): Promise<{ id: string; path: string }> {
    throw new TxcriptError("REFUSED", "txcript does not write Cursor CLI's chat store", {
      harness,
      hint: "cursor-agent cannot be run here to check a store.db txcript would write; convert to another harness instead",
    });
  }

  async delete(id: string): Promise<void> {
    throw new TxcriptError(
      "REFUSED",
      `txcript does not write Cursor CLI's chat store, so it cannot delete ${id}`,
      {
        harness,
        hint: "delete the chat in cursor-agent",
      },
    );
  }
}
