// Where Cursor CLI keeps its chats, from the environment alone: the store's
// default root (`<config dir>/chats`). It imports node:os and node:path
// only, so @txcript/harnesses/roots (the CLI's search fast path) reads every
// store's location through this subpath (`./store-root`) without loading a
// codec.
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

/** The Cursor CLI store's location: its chats directory. */
export function cursorCliStoreLocation(env: CursorCliEnvironment = process.env): { root: string } {
  return { root: defaultCursorCliRoot(env) };
}
