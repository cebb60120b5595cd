import { readdirSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";
import * as crush from "./index.js";

it("exports exactly the public API", () => {
  expect(Object.keys(crush).sort()).toEqual([
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
  ]);
});

it("loads the SQLite binding only on first use (no static import anywhere)", () => {
  const directory = new URL(".", import.meta.url);
  const sources = readdirSync(directory).filter(
    (name) => name.endsWith(".ts") && !name.endsWith(".test.ts"),
  );
  const importers = sources.filter((name) =>
    readFileSync(new URL(name, directory), "utf8").includes('better-sqlite3"'),
  );
  expect(importers).toEqual(["crush-sqlite.ts"]);
  const text = readFileSync(new URL("crush-sqlite.ts", directory), "utf8");
  expect(text).toMatch(/import\("better-sqlite3"\)/);
  expect(text).not.toMatch(/^import [^(]*"better-sqlite3"/m);
});

it("resumes with --session=<id>, so an id beginning with - stays a value", () => {
  expect(crush.crushResumeCommand("-x")).toEqual(["crush", "--session=-x"]);
});
