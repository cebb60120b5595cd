import { expect, it } from "vitest";
import * as amp from "./index.js";

it("exports exactly the public API", () => {
  expect(Object.keys(amp).sort()).toEqual([
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
});
