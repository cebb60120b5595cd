// @txcript/amp: Amp thread documents (the local-first CLI's threads/*.json
// and `amp threads export`) ⇄ the txcript Common model, Amp's tool dialect
// (shared with Amp's stream-json), and the local threads store.

export { ampCodec } from "./amp-codec.js";
export { ampHarness } from "./amp-harness.js";
export {
  AMP_THREAD_ID_NAMESPACE,
  ampThreadId,
  assertSafeThreadId,
  isAmpThreadId,
} from "./amp-ids.js";
export type { InexactNumbers } from "./amp-numbers.js";
export { ampProject, ampToolProject } from "./amp-project.js";
export type {
  AmpBlock,
  AmpEnvironment,
  AmpLedgerEvent,
  AmpMessage,
  AmpSourceText,
  AmpState,
  AmpThread,
  AmpThreadDocument,
  AmpToolRun,
  AmpUsage,
} from "./amp-schema.js";
export type { AmpStoreOptions } from "./amp-store.js";
export { AmpStore } from "./amp-store.js";
export type { AmpToolEra, AmpToolOptions } from "./amp-tools.js";
export { ampToolFromCommon, ampToolToCommon, defaultAmpToolEra } from "./amp-tools.js";
export type { AmpWriteOptions } from "./common-to-amp.js";
