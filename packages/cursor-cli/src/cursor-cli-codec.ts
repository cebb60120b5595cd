// The Cursor CLI codec: txcript's chat document (cursor-cli-schema.ts) ⇄
// Common. A store.db is read into that document by cursor-cli-database.ts;
// the codec itself never touches SQLite.
import { type Codec, stringifyJson } from "@txcript/core";
import { commonToCursorCli } from "./common-to-cursor-cli.js";
import { cursorCliLosses } from "./cursor-cli-losses.js";
import { type CursorCliChat, harness, parseCursorCliChat } from "./cursor-cli-schema.js";
import { cursorCliSniff } from "./cursor-cli-sniff.js";
import { cursorCliToCommon } from "./cursor-cli-to-common.js";

export const cursorCliCodec: Codec<CursorCliChat> = {
  id: harness,
  displayName: "Cursor CLI chat",
  losses: cursorCliLosses,
  detect: cursorCliSniff,
  parse: (text, options) => parseCursorCliChat(text, options),
  serialize: (chat) => `${stringifyJson(chat, 2, harness)}\n`,
  toCommon: (chat, options) => cursorCliToCommon(chat, options),
  fromCommon: (transcript, options) => commonToCursorCli(transcript, options),
};
