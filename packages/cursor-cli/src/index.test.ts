import { describePublicExports } from "@txcript/core/testing";
import * as cursorCli from "./index.js";

describePublicExports(
  "@txcript/cursor-cli",
  cursorCli,
  [
    "CursorCliStore",
    "cursorCliCodec",
    "cursorCliHarness",
    "cursorCliLimits",
    "cursorCliLoss",
    "cursorCliLosses",
    "cursorCliProject",
    "cursorConfigDir",
    "decodeWire",
    "defaultCursorCliRoot",
    "encodeBytesField",
    "isCursorChatId",
    "loadCursorCliFile",
    "parseCursorCliChat",
    "readCursorCliDatabase",
    "readCursorCliHead",
  ],
  {
    lazyImports: [
      {
        directory: new URL(".", import.meta.url),
        module: "better-sqlite3",
        file: "cursor-cli-database.ts",
      },
    ],
  },
);
