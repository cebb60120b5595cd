// @txcript/cursor-cli: Cursor CLI (cursor-agent) chats — the read-only store
// over ~/.cursor/chats/<md5 of the workspace path>/<chat id>/store.db, the
// walk of its content-addressed blob tree, and the codec between txcript's
// chat document and the Common model. Nothing here writes Cursor's store.
export { cursorCliCodec } from "./cursor-cli-codec.js";
export type { CursorCliHead } from "./cursor-cli-database.js";
export {
  cursorCliLimits,
  readCursorCliDatabase,
  readCursorCliHead,
} from "./cursor-cli-database.js";
export { cursorCliHarness } from "./cursor-cli-harness.js";
export { loadCursorCliFile } from "./cursor-cli-load.js";
export { cursorCliLoss, cursorCliLosses } from "./cursor-cli-losses.js";
export { cursorConfigDir, defaultCursorCliRoot, isCursorChatId } from "./cursor-cli-paths.js";
export { cursorCliProject } from "./cursor-cli-project.js";
export type { CursorCliChat, CursorCliMessage } from "./cursor-cli-schema.js";
export { parseCursorCliChat } from "./cursor-cli-schema.js";
export type { CursorCliStoreOptions } from "./cursor-cli-store.js";
export { CursorCliStore } from "./cursor-cli-store.js";
export { decodeWire, encodeBytesField } from "./cursor-cli-wire.js";
