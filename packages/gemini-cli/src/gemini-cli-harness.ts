// Gemini CLI as a harness: chat recordings in either era, the ~/.gemini/tmp
// store, a reader that streams line by line (gemini-cli-stream.ts), a
// writer that streams record by record (gemini-cli-stream-write.ts),
// `gemini --resume <id>` run in the project directory (resume only looks
// in that project's chats), and Gemini CLI's own offline check of a saved
// session (gemini-cli-verify.ts).
import type { HarnessDefinition } from "@txcript/core";
import { commonToGeminiCli, type GeminiCliWriteOptions } from "./common-to-gemini-cli.js";
import { geminiCliCodec } from "./gemini-cli-codec.js";
import {
  geminiReadsAlone,
  geminiRootOf,
  readRecording,
  recordingOfSubagent,
  reportMissingSubagents,
  subagentRecordings,
} from "./gemini-cli-load.js";
import { geminiResumeCommand } from "./gemini-cli-paths.js";
import { geminiCliProject } from "./gemini-cli-project.js";
import type { GeminiCliSession } from "./gemini-cli-schema.js";
import { GeminiCliStore } from "./gemini-cli-store.js";
import { geminiCliReadStream } from "./gemini-cli-stream.js";
import { geminiCliWriteStream } from "./gemini-cli-stream-write.js";
import { geminiCliProgramCheck } from "./gemini-cli-verify.js";

export const geminiCliHarness: HarnessDefinition<GeminiCliSession> = {
  id: "gemini_cli",
  displayName: "Gemini CLI chat recording",
  aliases: ["gemini", "gemini-cli", "geminicli"],
  codec: geminiCliCodec,
  extension: ".jsonl",
  project: (transcript) => geminiCliProject(transcript),
  writeOptions: ({ now }) => (now === undefined ? {} : { now }),
  // A recording in a store's layout reads like the stored session; elsewhere with its subagents beside it.
  loadFile: async (file, context) => {
    const root = geminiRootOf(file);
    if (root !== undefined) return new GeminiCliStore({ root }).loadFile(file, context);
    const session = await readRecording(file, context);
    const subagents = await subagentRecordings(file, session, context);
    reportMissingSubagents(session, subagents, file, context);
    return subagents.length === 0 ? session : { ...session, subagents };
  },
  readsAlone: (file, context) =>
    geminiReadsAlone(file, async () => {
      const root = geminiRootOf(file);
      return root === undefined
        ? undefined
        : new GeminiCliStore({ root }).projectRootOf(file, context);
    }),
  sideFileOf: (file) => recordingOfSubagent(file),
  readStream: geminiCliReadStream,
  writeStream: geminiCliWriteStream,
  *serializeChunks(transcript, options) {
    for (const line of commonToGeminiCli(transcript, options as GeminiCliWriteOptions).lines)
      yield `${line.text}\n`;
  },
  environment: [
    ["GEMINI_CLI_HOME", "the directory holding .gemini (Gemini CLI's home); default: HOME"],
    ["HOME", "the home directory, when GEMINI_CLI_HOME is not set"],
  ],
  store: (environment, root) =>
    new GeminiCliStore({ env: environment, ...(root === undefined ? {} : { root }) }),
  resumeCommand: (id) => geminiResumeCommand(id),
  programCheck: geminiCliProgramCheck,
};
