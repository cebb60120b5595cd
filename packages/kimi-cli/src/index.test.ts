import { describePublicExports } from "@txcript/core/testing";
import * as api from "./index.js";

describePublicExports("@txcript/kimi-cli", api, [
  "KimiCliStore",
  "canonicalToKimiTool",
  "defaultKimiRoot",
  "isKimiSessionId",
  "kimiCliCodec",
  "kimiCliHarness",
  "kimiCliLoss",
  "kimiCliLosses",
  "kimiCliNamespace",
  "kimiCliProject",
  "kimiCliStoreLocation",
  "kimiResumeCommand",
  "kimiSessionId",
  "kimiSessionPaths",
  "kimiToolToCanonical",
  "kimiWorkDirHash",
  "loadKimiSession",
]);
