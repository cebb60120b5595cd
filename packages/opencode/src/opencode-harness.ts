// OpenCode as a harness: its export JSON, the read-only database and
// storage-tree store, and continuing through `opencode import` (afterSave)
// then `opencode --session <id>` in the session's directory, and OpenCode's
// own offline check of the file before that (opencode-verify.ts). A long
// export file is read line by line (opencode-stream-read.ts).
import { rm } from "node:fs/promises";
import { type HarnessDefinition, readHead } from "@txcript/core";
import { opencodeCodec } from "./opencode-codec.js";
import { opencodeImport } from "./opencode-import.js";
import { loadOpencodeFile, opencodeStorageOf } from "./opencode-load.js";
import { opencodeResumeCommand } from "./opencode-paths.js";
import { opencodeProject } from "./opencode-project.js";
import type { OpencodeSession } from "./opencode-schema.js";
import { OpencodeStore } from "./opencode-store.js";
import { opencodeReadStream } from "./opencode-stream-read.js";
import { opencodeProgramCheck } from "./opencode-verify.js";

export const opencodeHarness: HarnessDefinition<OpencodeSession> = {
  id: "opencode",
  displayName: "OpenCode session",
  aliases: ["open-code", "oc", "sst-opencode"],
  codec: opencodeCodec,
  extension: ".json",
  project: (transcript) => opencodeProject(transcript),
  environment: [
    [
      "XDG_DATA_HOME",
      "OpenCode's data directory is <dir>/opencode (default ~/.local/share/opencode)",
    ],
    ["OPENCODE_DB", "the OpenCode database file (absolute, or relative to the data directory)"],
  ],
  // A stored session (database or storage tree) loads through its store; a storage-tree file
  // with its messages, parts and children; an export file is parsed.
  loadFile: (file, context) =>
    loadOpencodeFile(file, context, (id) =>
      new OpencodeStore({ env: context.environment }).load(id),
    ),
  // An export file alone is what its load reads (line by line when long: opencode-stream-read.ts);
  // a stored session is read with its database or storage tree.
  readsAlone: async (file, context) =>
    context.discovered !== undefined ||
    opencodeStorageOf(file) !== undefined ||
    (await readHead(file, 16)).startsWith("SQLite format 3")
      ? undefined
      : {},
  readStream: opencodeReadStream,
  store: (environment, root) =>
    new OpencodeStore({ env: environment, ...(root === undefined ? {} : { root }) }),
  resumeCommand: (id) => opencodeResumeCommand(id),
  // The staged file is a hand-over only: gone once import ran, or failed (no stale "already continued").
  afterSave: async (saved, context) => {
    try {
      const imported = await opencodeImport(saved.path, {
        cwd: context.cwd,
        env: context.environment,
      });
      return { id: imported.id, path: OpencodeStore.defaultRoot(context.environment) };
    } finally {
      await rm(saved.path, { force: true });
    }
  },
  programCheck: opencodeProgramCheck,
};
