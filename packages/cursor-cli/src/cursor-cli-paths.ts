export type { CursorCliEnvironment } from "./cursor-cli-store-root.js";
export { cursorConfigDir, defaultCursorCliRoot } from "./cursor-cli-store-root.js";

/** A workspace directory's name: 32 lowercase hex digits (the md5 of the workspace path). */
export const workspaceHashPattern = /^[0-9a-f]{32}$/;

/** A chat id that can name a directory: a UUID in every store seen; any plain name is accepted. */
export function isCursorChatId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id) && id !== "." && id !== "..";
}
