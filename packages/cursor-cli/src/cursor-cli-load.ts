// One road from a file to a Cursor CLI chat: a SQLite file (a chat's
// store.db, found by its header) is read as a store, its directory's name as
// the chat id; any other file is txcript's chat document, parsed.
import { constants } from "node:fs";
import { lstat, open } from "node:fs/promises";
import * as path from "node:path";
import { ioError, type LoadContext, loadText, TxcriptError } from "@txcript/core";
import { readCursorCliDatabase } from "./cursor-cli-database.js";
import { isCursorChatId } from "./cursor-cli-paths.js";
import { type CursorCliChat, harness, parseCursorCliChat } from "./cursor-cli-schema.js";

const sqliteHeader = Buffer.from("SQLite format 3\0", "latin1");

/** True when `file` is a regular file that begins with the SQLite header. */
export async function isSqliteFile(file: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    // lstat first: opening a FIFO would wait for a writer, and a link is not followed.
    if (!(await lstat(file)).isFile())
      throw new TxcriptError("UNSAFE_PATH", `${file} is not a regular file`, {
        harness,
        location: { file },
      });
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const head = Buffer.alloc(sqliteHeader.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(sqliteHeader);
  } catch (cause) {
    if (TxcriptError.isInstance(cause)) throw cause;
    throw ioError(cause, file, "read", harness);
  } finally {
    await handle?.close();
  }
}

export async function loadCursorCliFile(
  file: string,
  context: LoadContext,
): Promise<CursorCliChat> {
  if (await isSqliteFile(file)) {
    const directory = path.basename(path.dirname(path.resolve(file)));
    return readCursorCliDatabase(file, isCursorChatId(directory) ? directory : undefined);
  }
  return parseCursorCliChat(await loadText(file, context, harness), { file });
}
