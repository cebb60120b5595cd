import { describePublicExports } from "@txcript/core/testing";
import * as api from "./index.js";

describePublicExports("@txcript/copilot-cli", api, [
  "CopilotCliStore",
  "canonicalToCopilotTool",
  "copilotCliCodec",
  "copilotCliHarness",
  "copilotCliLoss",
  "copilotCliLosses",
  "copilotCliNamespace",
  "copilotCliProgramCheck",
  "copilotCliProject",
  "copilotCliVersion",
  "copilotResumeCommand",
  "copilotSessionId",
  "copilotToolToCanonical",
  "defaultCopilotRoot",
  "isCopilotSessionId",
]);
