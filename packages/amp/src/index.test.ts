import { describePublicExports } from "@txcript/core/testing";
import * as amp from "./index.js";

describePublicExports("@txcript/amp", amp, [
  "AMP_THREAD_ID_NAMESPACE",
  "AmpStore",
  "ampCodec",
  "ampHarness",
  "ampProject",
  "ampThreadId",
  "ampToolFromCommon",
  "ampToolProject",
  "ampToolToCommon",
  "assertSafeThreadId",
  "defaultAmpToolEra",
  "isAmpThreadId",
]);
