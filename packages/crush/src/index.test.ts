import { describePublicExports } from "@txcript/core/testing";
import { expect, it } from "vitest";
import * as crush from "./index.js";

describePublicExports(
  "@txcript/crush",
  crush,
  [
    "CrushStore",
    "canonicalToCrushTool",
    "commonToCrush",
    "crushCodec",
    "crushDatabaseIn",
    "crushDatabaseOf",
    "crushGlobalDataDir",
    "crushHarness",
    "crushLoss",
    "crushLosses",
    "crushMessageId",
    "crushMigrations",
    "crushProject",
    "crushProjectOf",
    "crushResumeCommand",
    "crushSchemaStatements",
    "crushToCommon",
    "crushToolToCanonical",
    "decodeParts",
    "isGoBase64",
    "parseCrushSession",
    "partFields",
    "readSession",
    "serializeCrushSession",
    "writeSession",
  ],
  {
    lazyImports: [
      {
        directory: new URL(".", import.meta.url),
        module: "better-sqlite3",
        file: "crush-sqlite.ts",
      },
    ],
  },
);

it("resumes with --session=<id>, so an id beginning with - stays a value", () => {
  expect(crush.crushResumeCommand("-x")).toEqual(["crush", "--session=-x"]);
});
