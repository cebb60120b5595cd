// Claude Code as a harness: session JSONL, the ~/.claude/projects store,
// a writer that streams line by line, `claude --resume`, and Claude Code's
// own offline check of a saved session (claude-code-verify.ts).
import type { HarnessDefinition } from "@txcript/core";
import { claudeCodeCodec } from "./claude-code-codec.js";
import { claudeResumeCommand } from "./claude-code-paths.js";
import { claudeCodeProject } from "./claude-code-project.js";
import type { ClaudeCodeSession } from "./claude-code-schema.js";
import { ClaudeCodeStore } from "./claude-code-store.js";
import { claudeCodeReadStream } from "./claude-code-stream-read.js";
import { claudeCodeWriteStream } from "./claude-code-stream-write.js";
import {
  hasSubagentDirectory,
  loadClaudeCodeFile,
  readsAloneKey,
  sessionFileOfSubagent,
} from "./claude-code-subagent-files.js";
import { claudeCodeProgramCheck } from "./claude-code-verify.js";
import { commonToClaudeCodeLines } from "./common-to-claude-code.js";

export const claudeCodeHarness: HarnessDefinition<ClaudeCodeSession> = {
  id: "claude_code",
  displayName: "Claude Code session",
  aliases: ["claude", "claude-code", "claudecode", "cc"],
  codec: claudeCodeCodec,
  extension: ".jsonl",
  project: (transcript) => claudeCodeProject(transcript),
  *serializeChunks(transcript, options) {
    for (const line of commonToClaudeCodeLines(transcript, options)) yield `${line}\n`;
  },
  loadFile: loadClaudeCodeFile,
  // A file with subagent files beside it is read with them, never line by line alone; a lone
  // one names the subagents it lacks, as its load does.
  readsAlone: async (file) =>
    (await hasSubagentDirectory(file)) ? undefined : { [readsAloneKey]: true },
  sideFileOf: async (file) => sessionFileOfSubagent(file),
  readStream: claudeCodeReadStream,
  writeStream: claudeCodeWriteStream,
  environment: [
    [
      "CLAUDE_CONFIG_DIR",
      "the Claude Code config directory (sessions in <dir>/projects; default ~/.claude)",
    ],
  ],
  store: (environment, root) =>
    new ClaudeCodeStore({ env: environment, ...(root === undefined ? {} : { root }) }),
  resumeCommand: (id) => [...claudeResumeCommand(id).argv],
  programCheck: claudeCodeProgramCheck,
};
