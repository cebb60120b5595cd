// @txcript/gemini-cli: Gemini CLI chat recordings (`~/.gemini/tmp/<project>/
// chats/session-*.json(l)`, both the whole-document JSON era and the JSONL
// record era) — the lossless codec to and from the Common model, its
// normalization as code, the store with its projects.json registry, and the
// resume command. The CLI composes these; nothing here launches Gemini CLI.
export type { GeminiCliWriteOptions } from "./common-to-gemini-cli.js";
export { geminiCliCodec } from "./gemini-cli-codec.js";
export { geminiCliHarness } from "./gemini-cli-harness.js";
export { geminiCliLoss, geminiCliLosses } from "./gemini-cli-losses.js";
export {
  defaultGeminiRoot,
  geminiCliNamespace,
  geminiProjectHash,
  geminiProjectSlug,
  geminiResumeCommand,
  geminiSessionFileName,
  geminiSessionId,
  isGeminiSessionId,
} from "./gemini-cli-paths.js";
export { geminiCliProject } from "./gemini-cli-project.js";
export { readProjects, registerGeminiProject } from "./gemini-cli-projects.js";
export type {
  GeminiCliJsonlSession,
  GeminiCliJsonSession,
  GeminiCliLine,
  GeminiCliSession,
  GeminiCliSubagentFile,
} from "./gemini-cli-schema.js";
export type { GeminiCliSaveOptions, GeminiCliStoreOptions } from "./gemini-cli-store.js";
export { GeminiCliStore } from "./gemini-cli-store.js";
export type { GeminiCliReadOptions } from "./gemini-cli-to-common.js";
export { canonicalToGeminiTool, geminiToolToCanonical } from "./gemini-cli-tools.js";
export { geminiCliProgramCheck } from "./gemini-cli-verify.js";
