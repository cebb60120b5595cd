import { readdirSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";
import * as cursorCli from "./index.js";

it("exports exactly the public API", () => {
  expect(Object.keys(cursorCli).sort()).toEqual([
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
  expect(importers).toEqual(["cursor-cli-database.ts"]);
  const text = readFileSync(new URL("cursor-cli-database.ts", directory), "utf8");
  expect(text).toMatch(/import\("better-sqlite3"\)/);
  expect(text).not.toMatch(/^import [^(]*"better-sqlite3"/m);
});
