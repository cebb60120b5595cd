// GitHub Copilot CLI as a harness: event logs in the ~/.copilot store,
// a writer that streams event by event, `copilot --resume=<id>` run in the
// session's directory, and the program's own offline check of a saved
// session (copilot-cli-verify.ts).
import type { HarnessDefinition } from "@txcript/core";
import { type CopilotCliWriteOptions, copilotCliLines } from "./common-to-copilot-cli.js";
import { copilotCliCodec } from "./copilot-cli-codec.js";
import { copilotResumeCommand } from "./copilot-cli-paths.js";
import { copilotCliProject } from "./copilot-cli-project.js";
import type { CopilotCliSession } from "./copilot-cli-schema.js";
import { CopilotCliStore } from "./copilot-cli-store.js";
import { copilotCliProgramCheck } from "./copilot-cli-verify.js";

export const copilotCliHarness: HarnessDefinition<CopilotCliSession> = {
  id: "copilot_cli",
  displayName: "GitHub Copilot CLI session",
  aliases: ["copilot", "copilot-cli", "github-copilot", "github-copilot-cli"],
  codec: copilotCliCodec,
  extension: ".jsonl",
  project: (transcript) => copilotCliProject(transcript),
  *serializeChunks(transcript, options) {
    for (const line of copilotCliLines(transcript, options as CopilotCliWriteOptions))
      yield `${line}\n`;
  },
  environment: [
    ["COPILOT_HOME", "Copilot CLI's directory (holding session-state); default: ~/.copilot"],
    ["HOME", "the home directory, when COPILOT_HOME is not set"],
  ],
  store: (environment, root) =>
    new CopilotCliStore({ env: environment, ...(root === undefined ? {} : { root }) }),
  resumeCommand: (id) => copilotResumeCommand(id),
  programCheck: copilotCliProgramCheck,
};
