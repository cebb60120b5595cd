// pi as a harness: the tree JSONL codec, the ~/.pi/agent/sessions store, a
// reader that streams line by line (pi-stream.ts), a writer that streams
// message by message from parts (pi-stream-write.ts) or line by line from
// a whole transcript, and `pi --session <id>` (run in the session's cwd,
// which must exist: continue writes the target directory), and pi's own
// offline check of a saved session (pi-verify.ts).
import { type HarnessDefinition, loadText } from "@txcript/core";
import { commonToPiLines } from "./common-to-pi.js";
import { piCodec } from "./pi-codec.js";
import { piResumeCommand } from "./pi-paths.js";
import { piProject } from "./pi-project.js";
import type { PiSession } from "./pi-schema.js";
import { PiStore } from "./pi-store.js";
import { piReadStream } from "./pi-stream.js";
import { piWriteStream } from "./pi-stream-write.js";
import { piProgramCheck } from "./pi-verify.js";

export const piHarness: HarnessDefinition<PiSession> = {
  id: "pi",
  displayName: "pi session",
  aliases: ["pi-coding-agent", "pi_coding_agent", "pi-mono"],
  codec: piCodec,
  extension: ".jsonl",
  project: (transcript) => piProject(transcript),
  // A pi session is its one file (branches are entries of its tree): loaded alone, by path or id.
  loadFile: async (file, context) =>
    piCodec.parse(context.text ?? (await loadText(file, context, "pi")), { file }),
  readsAlone: async () => ({}),
  readStream: piReadStream,
  writeStream: piWriteStream,
  *serializeChunks(transcript, options) {
    for (const line of commonToPiLines(transcript, options)) yield `${line}\n`;
  },
  environment: [
    [
      "PI_CODING_AGENT_DIR",
      "the pi agent directory (sessions in <dir>/sessions; default ~/.pi/agent)",
    ],
    [
      "PI_CODING_AGENT_SESSION_DIR",
      "a directory holding every pi session directly, instead of <agent dir>/sessions",
    ],
  ],
  store: (environment, root) =>
    new PiStore({ env: environment, ...(root === undefined ? {} : { root }) }),
  resumeCommand: (id) => [...piResumeCommand(id)],
  programCheck: piProgramCheck,
};
