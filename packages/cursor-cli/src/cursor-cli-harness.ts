// Cursor CLI (cursor-agent) as a harness: read-only. Its chats are read from
// the store (or a store.db, or txcript's chat document); `continue` into it
// is refused, because cursor-agent cannot be had here to show that a
// store.db txcript wrote would be read.
import type { HarnessDefinition } from "@txcript/core";
import { cursorCliCodec } from "./cursor-cli-codec.js";
import { loadCursorCliFile } from "./cursor-cli-load.js";
import { cursorCliProject } from "./cursor-cli-project.js";
import type { CursorCliChat } from "./cursor-cli-schema.js";
import { CursorCliStore } from "./cursor-cli-store.js";

export const cursorCliHarness: HarnessDefinition<CursorCliChat> = {
  id: "cursor_cli",
  displayName: "Cursor CLI chat",
  aliases: ["cursor", "cursor-agent", "cursor-cli"],
  codec: cursorCliCodec,
  extension: ".cursor-chat.json",
  project: (transcript) => cursorCliProject(transcript),
  environment: [
    [
      "CURSOR_CONFIG_DIR",
      "Cursor CLI's config directory; chats are in <dir>/chats (default ~/.cursor)",
    ],
  ],
  loadFile: (file, context) => loadCursorCliFile(file, context),
  readsAlone: async () => undefined,
  store: (environment, root) =>
    new CursorCliStore({ env: environment, ...(root === undefined ? {} : { root }) }),
  continueRefusal: {
    reason:
      "txcript only reads Cursor CLI chats: cursor-agent is closed source and cannot be installed here, so nothing shows that a store.db txcript wrote would be read (the npm package named cursor-agent is unrelated)",
    instead:
      "continue the conversation in another harness, e.g. `txcript continue <ref> --with claude_code`",
  },
};
