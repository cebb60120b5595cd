import { describePublicExports } from "@txcript/core/testing";
import * as api from "./index.js";

describePublicExports("@txcript/pi", api, [
  "PiStore",
  "commonToPiLines",
  "commonToolToPi",
  "mungePiCwd",
  "piAgentDir",
  "piCodec",
  "piHarness",
  "piLoss",
  "piLosses",
  "piNamespace",
  "piProgramCheck",
  "piProject",
  "piReadStream",
  "piResumeCommand",
  "piSessionFileName",
  "piSessionId",
  "piSessionsRoot",
  "piToolToCommon",
]);
