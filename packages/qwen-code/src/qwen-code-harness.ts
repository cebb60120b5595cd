// Qwen Code as a harness: its chat recordings with their subagent
// transcripts, the ~/.qwen/projects store,
// `qwen --resume=<id>` run in the project directory (resume only looks in
// that project's chats and refuses a recording whose first record's cwd is
// another project), and Qwen Code's own offline check of a saved session
// (qwen-code-verify.ts).
import type { HarnessDefinition } from "@txcript/core";
import { commonToQwenCode } from "./common-to-qwen-code.js";
import { qwenCodeCodec } from "./qwen-code-codec.js";
import { qwenResumeCommand } from "./qwen-code-paths.js";
import { qwenCodeProject } from "./qwen-code-project.js";
import type { QwenCodeSession } from "./qwen-code-schema.js";
import { loadQwenFile, QwenCodeStore } from "./qwen-code-store.js";
import { sessionOfSubagentFile } from "./qwen-code-subagents.js";
import { qwenCodeProgramCheck } from "./qwen-code-verify.js";

export const qwenCodeHarness: HarnessDefinition<QwenCodeSession> = {
  id: "qwen_code",
  displayName: "Qwen Code chat recording",
  aliases: ["qwen", "qwen-code", "qwencode"],
  codec: qwenCodeCodec,
  extension: ".jsonl",
  project: (transcript) => qwenCodeProject(transcript),
  // A session file in a project's chats/ reads with its agents' transcripts (subagents/<id>/).
  loadFile: (file, context) => loadQwenFile(file, context),
  sideFileOf: (file) => sessionOfSubagentFile(file),
  *serializeChunks(transcript, options) {
    for (const line of commonToQwenCode(transcript, options).lines) yield `${line.text}\n`;
  },
  environment: [
    [
      "QWEN_RUNTIME_DIR",
      "Qwen Code's runtime directory holding projects/ (sessions); default: QWEN_HOME",
    ],
    ["QWEN_HOME", "Qwen Code's home directory; default: ~/.qwen"],
    ["HOME", "the home directory, when neither is set"],
  ],
  store: (environment, root) =>
    new QwenCodeStore({ env: environment, ...(root === undefined ? {} : { root }) }),
  resumeCommand: (id) => qwenResumeCommand(id),
  programCheck: qwenCodeProgramCheck,
};
