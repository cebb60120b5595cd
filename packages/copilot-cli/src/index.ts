// @txcript/copilot-cli: GitHub Copilot CLI sessions (`~/.copilot/
// session-state/<id>/events.jsonl`, and the earlier flat `<id>.jsonl`) —
// the lossless codec to and from the Common model, its normalization as
// code, the store, the resume command and the program's offline check. The
// CLI composes these; nothing here launches Copilot CLI except the check.
export type { CopilotCliWriteOptions } from "./common-to-copilot-cli.js";
export { copilotCliCodec } from "./copilot-cli-codec.js";
export { copilotCliHarness } from "./copilot-cli-harness.js";
export { copilotCliLoss, copilotCliLosses } from "./copilot-cli-losses.js";
export {
  copilotCliNamespace,
  copilotCliVersion,
  copilotResumeCommand,
  copilotSessionId,
  defaultCopilotRoot,
  isCopilotSessionId,
} from "./copilot-cli-paths.js";
export { copilotCliProject } from "./copilot-cli-project.js";
export type { CopilotCliLine, CopilotCliSession } from "./copilot-cli-schema.js";
export type { CopilotCliStoreOptions } from "./copilot-cli-store.js";
export { CopilotCliStore } from "./copilot-cli-store.js";
export type { CopilotCliReadOptions } from "./copilot-cli-to-common.js";
export { canonicalToCopilotTool, copilotToolToCanonical } from "./copilot-cli-tools.js";
export { copilotCliProgramCheck } from "./copilot-cli-verify.js";
