import { describePublicExports } from "@txcript/core/testing";
import * as opencode from "./index.js";

describePublicExports(
  "@txcript/opencode",
  opencode,
  [
    "OPENCODE_ID_NAMESPACE",
    "OPENCODE_SCHEMA_VERSION",
    "OpencodeStore",
    "guessProvider",
    "importProblems",
    "isOpencodeSessionId",
    "opencodeCodec",
    "opencodeDataDir",
    "opencodeDatabasePath",
    "opencodeHarness",
    "opencodeImport",
    "opencodeLosses",
    "opencodeProgramCheck",
    "opencodeProject",
    "opencodeResumeCommand",
    "opencodeSessionId",
    "opencodeStagingDir",
    "opencodeStorageDir",
    "opencodeToolToCommon",
  ],
  {
    lazyImports: [
      {
        directory: new URL(".", import.meta.url),
        module: "better-sqlite3",
        file: "opencode-sqlite.ts",
      },
    ],
  },
);
