// Kimi CLI as a harness: its context files, the ~/.kimi/sessions store (the
// work dir behind each hash from kimi.json), and `kimi --session=<id>` run in
// the work dir (Session.find looks the session up under that work dir's
// hash, through kimi.json). Kimi CLI is a Python program on PyPI, which this
// project's machines cannot reach: nothing here runs it (no programCheck).
import type { HarnessDefinition } from "@txcript/core";
import { commonToKimiCli } from "./common-to-kimi-cli.js";
import { kimiCliCodec } from "./kimi-cli-codec.js";
import { loadKimiSession, sessionOfSubagentFile } from "./kimi-cli-load.js";
import { kimiResumeCommand } from "./kimi-cli-paths.js";
import { kimiCliProject } from "./kimi-cli-project.js";
import type { KimiCliSession } from "./kimi-cli-schema.js";
import { KimiCliStore } from "./kimi-cli-store.js";

export const kimiCliHarness: HarnessDefinition<KimiCliSession> = {
  id: "kimi_cli",
  displayName: "Kimi CLI context file",
  aliases: ["kimi", "kimi-cli", "kimicli", "kimi-code"],
  codec: kimiCliCodec,
  extension: ".jsonl",
  project: (transcript) => kimiCliProject(transcript),
  readOptions: ({ startTime }) => (startTime === undefined ? {} : { startTime }),
  *serializeChunks(transcript, options) {
    for (const line of commonToKimiCli(transcript, options).lines) yield `${line.text}\n`;
  },
  environment: [
    [
      "KIMI_SHARE_DIR",
      "Kimi CLI's share directory holding sessions/ and kimi.json; default: ~/.kimi",
    ],
    ["HOME", "the home directory, when KIMI_SHARE_DIR is not set"],
  ],
  store: (environment, root) =>
    new KimiCliStore({ env: environment, ...(root === undefined ? {} : { root }) }),
  loadFile: (file, context) => loadKimiSession(file, context),
  sideFileOf: (file) => sessionOfSubagentFile(file),
  resumeCommand: (id) => kimiResumeCommand(id),
};
