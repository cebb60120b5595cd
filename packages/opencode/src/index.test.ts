import { readdirSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";
import * as opencode from "./index.js";

it("exports exactly the public API", () => {
  expect(Object.keys(opencode).sort()).toEqual([
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
  expect(importers).toEqual(["opencode-sqlite.ts"]);
  const text = readFileSync(new URL("opencode-sqlite.ts", directory), "utf8");
  expect(text).toMatch(/import\("better-sqlite3"\)/);
  expect(text).not.toMatch(/^import [^(]*"better-sqlite3"/m);
});
