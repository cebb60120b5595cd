// Codex as a harness: rollout JSONL (every era read, the legacy line format
// written), the $CODEX_HOME sessions store, a writer that streams line by
// line, `codex resume <id>` run in the session's cwd, and Codex's own
// offline check of a saved rollout (codex-verify.ts).
import type { HarnessDefinition } from "@txcript/core";
import { codexCodec } from "./codex-codec.js";
import { codexHomeOf, parseRolloutFile, reportMissingRollouts } from "./codex-load.js";
import { codexResumeCommand } from "./codex-paths.js";
import { codexProject } from "./codex-project.js";
import type { CodexRollout } from "./codex-schema.js";
import { CodexStore } from "./codex-store.js";
import { codexReadStream, codexWriteStream } from "./codex-stream.js";
import { codexProgramCheck } from "./codex-verify.js";
import { commonToCodexLines } from "./common-to-codex.js";

/**
 * One store per Codex home for loads by path, so what it remembers of each rollout's parent
 * thread (checked against the file's size and mtime) serves every session of a search index.
 */
const stores = new Map<string, CodexStore>();
function storeAt(home: string): CodexStore {
  let store = stores.get(home);
  if (store === undefined) {
    store = new CodexStore({ root: home });
    stores.set(home, store);
  }
  return store;
}

export const codexHarness: HarnessDefinition<CodexRollout> = {
  id: "codex",
  displayName: "Codex rollout",
  aliases: ["codex-cli", "openai-codex"],
  codec: codexCodec,
  extension: ".jsonl",
  project: (transcript) => codexProject(transcript),
  // Encrypted reasoning is only valid for the account that made it: keep it from Codex sessions only.
  writeOptions: ({ from }) => ({ reasoning: from === "codex" ? "openai-encrypted" : "text-only" }),
  *serializeChunks(transcript, options) {
    for (const line of commonToCodexLines(transcript, options)) yield `${line}\n`;
  },
  // A rollout in a Codex home's layout reads with the rollouts of the agents it spawned.
  loadFile: async (file, context) => {
    const home = codexHomeOf(file);
    if (home !== undefined) return storeAt(home).loadFile(file, context);
    const rollout = await parseRolloutFile(file, context);
    reportMissingRollouts(rollout, file, context);
    return rollout;
  },
  // Alone: a plain rollout no other rollout of its home names as its parent thread.
  readsAlone: async (file) => {
    if (file.endsWith(".zst")) return undefined;
    const home = codexHomeOf(file);
    return home !== undefined && (await storeAt(home).hasChildren(file)) ? undefined : {};
  },
  readStream: codexReadStream,
  writeStream: codexWriteStream,
  environment: [["CODEX_HOME", "the Codex home (sessions in <dir>/sessions; default ~/.codex)"]],
  store: (environment, root) =>
    new CodexStore({ env: environment, ...(root === undefined ? {} : { root }) }),
  resumeCommand: (id) => codexResumeCommand(id),
  programCheck: codexProgramCheck,
};
