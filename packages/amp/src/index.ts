// @txcript/amp: Amp thread documents (the local-first CLI's threads/*.json
// and `amp threads export`) ⇄ the txcript Common model, Amp's tool dialect
// (shared with Amp's stream-json), and the local threads store.
export type { AmpToolEra, AmpToolOptions } from "./amp-tools.js";
export { ampToolFromCommon, ampToolToCommon } from "./amp-tools.js";
