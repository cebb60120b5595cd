// @txcript/pi: pi coding agent sessions (`~/.pi/agent/sessions/--<cwd>--/
// <timestamp>_<id>.jsonl`, a tree of entries, format versions 1 to 3) — the
// lossless codec to and from the Common model, its normalization as code,
// the store, and the harness definition. Nothing here launches pi.
export type { PiWriteOptions } from "./common-to-pi.js";
export { commonToPiLines } from "./common-to-pi.js";
export { piCodec } from "./pi-codec.js";
export { piHarness } from "./pi-harness.js";
export { piLoss, piLosses } from "./pi-losses.js";
export {
  mungePiCwd,
  piAgentDir,
  piNamespace,
  piResumeCommand,
  piSessionFileName,
  piSessionId,
  piSessionsRoot,
} from "./pi-paths.js";
export { piProject } from "./pi-project.js";
export type { PiLine, PiSession } from "./pi-schema.js";
export type { PiSaveOptions, PiStoreOptions } from "./pi-store.js";
export { PiStore } from "./pi-store.js";
export { piReadStream } from "./pi-stream.js";
export type { PiReadOptions } from "./pi-to-common.js";
export { commonToolToPi, piToolToCommon } from "./pi-tools.js";
export { piProgramCheck } from "./pi-verify.js";
