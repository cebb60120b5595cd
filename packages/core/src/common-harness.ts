// The Common document as a harness: read and written like any other, kept
// nowhere, and never a target for `continue`.
import { commonCodec } from "./common-codec.js";
import type { HarnessDefinition } from "./harness.js";

export const commonHarness: HarnessDefinition = {
  id: "common",
  displayName: "Common document",
  aliases: ["txcript", "common-json"],
  codec: commonCodec as HarnessDefinition["codec"],
  extension: ".common.json",
  project: (transcript) => transcript,
  continueRefusal: {
    reason: "the Common document is an exchange format, not a harness: nothing would resume it",
    instead: "use `txcript export` to write a Common document",
  },
};
