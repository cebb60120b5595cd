// Where Cursor CLI (cursor-agent) keeps its chats: `<config dir>/chats/
// <md5 of the workspace path>/<chat id>/store.db`, the config directory
// being $CURSOR_CONFIG_DIR when set, else ~/.cursor (docs.cursor.com CLI
// configuration reference; docs/formats/cursor-cli.md). Imports only
// node:os and node:path (packages/harnesses/src/roots.ts mirrors it).
import * as os from "node:os";
import * as path from "node:path";

export type CursorCliEnvironment = Record<string, string | undefined>;

/** The CLI's config directory: $CURSOR_CONFIG_DIR, else ~/.cursor. */
export function cursorConfigDir(env: CursorCliEnvironment = process.env): string {
  const override = env.CURSOR_CONFIG_DIR;
  if (override) return path.resolve(override);
  return path.resolve(path.join(env.HOME || os.homedir(), ".cursor"));
}

/** The chats directory, the store's root. */
export function defaultCursorCliRoot(env: CursorCliEnvironment = process.env): string {
  return path.join(cursorConfigDir(env), "chats");
}

/** A workspace directory's name: 32 lowercase hex digits (the md5 of the workspace path). */
export const workspaceHashPattern = /^[0-9a-f]{32}$/;

/** A chat id that can name a directory: a UUID in every store seen; any plain name is accepted. */
export function isCursorChatId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id) && id !== "." && id !== "..";
}
