// The public surface of @txcript/cli is the `txcript` bin alone: no library
// entry (the codec packages are the API), a bundled executable with a
// node hashbang, and no runtime dependencies to install.
import { existsSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import packageJson from "../package.json" with { type: "json" };

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

describe("@txcript/cli public surface", () => {
  it("exports only its package.json and the txcript bin", () => {
    expect(Object.keys(packageJson.exports).sort()).toEqual(["./package.json"]);
    expect(packageJson.bin).toEqual({ txcript: "./dist/txcript.js" });
  });
  it("has one runtime dependency, the native SQLite addon; everything else is bundled", () => {
    expect(packageJson.dependencies).toEqual({ "better-sqlite3": "12.11.1" });
    expect("peerDependencies" in packageJson).toBe(false);
  });
  it("loads the addon only where it is needed (the bundle keeps it external)", () => {
    const entry = readFileSync(path.join(packageRoot, packageJson.bin.txcript), "utf8");
    expect(entry).not.toContain("better-sqlite3");
  });
  it("builds an executable with a node hashbang", () => {
    const bin = path.join(packageRoot, packageJson.bin.txcript);
    if (!existsSync(bin)) throw new Error("build first: pnpm --filter @txcript/cli build");
    expect(readFileSync(bin, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect(statSync(bin).mode & 0o111).not.toBe(0);
  });
});
