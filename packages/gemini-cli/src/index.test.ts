import { describePublicExports } from "@txcript/core/testing";
import * as api from "./index.js";

describePublicExports("@txcript/gemini-cli", api, [
  "GeminiCliStore",
  "canonicalToGeminiTool",
  "defaultGeminiRoot",
  "geminiCliCodec",
  "geminiCliHarness",
  "geminiCliLoss",
  "geminiCliLosses",
  "geminiCliNamespace",
  "geminiCliProgramCheck",
  "geminiCliProject",
  "geminiProjectHash",
  "geminiProjectSlug",
  "geminiResumeCommand",
  "geminiSessionFileName",
  "geminiSessionId",
  "geminiToolToCanonical",
  "isGeminiSessionId",
  "readProjects",
  "registerGeminiProject",
]);
