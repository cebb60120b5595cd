// The public surface of @txcript/cli is the `txcript` bin alone: no library
// entry (the codec packages are the API), a bundled executable with a
// node hashbang, and one runtime dependency (the SQLite addon), loaded only
// by the commands that need it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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
  it("loads the addon only where it is needed: view and convert run without it, search needs it", () => {
    const bin = path.join(packageRoot, packageJson.bin.txcript);
    if (!existsSync(bin)) throw new Error("build first: pnpm --filter @txcript/cli build");
    const scratch = mkdtempSync(path.join(tmpdir(), "txcript-no-addon-"));
    try {
      // A preload that makes any load of better-sqlite3 (require or import) throw.
      const hooks = path.join(scratch, "hooks.mjs");
      writeFileSync(
        hooks,
        'export async function resolve(specifier, context, next) { if (specifier === "better-sqlite3") throw new Error("better-sqlite3 was loaded"); return next(specifier, context); }\n',
      );
      const preload = path.join(scratch, "preload.mjs");
      writeFileSync(
        preload,
        `import Module, { register } from "node:module";\nconst load = Module._load;\nModule._load = function (request, ...rest) { if (request === "better-sqlite3") throw new Error("better-sqlite3 was loaded"); return load.call(this, request, ...rest); };\nregister(${JSON.stringify(new URL(`file://${hooks}`).href)});\n`,
      );
      const run = (...args: string[]) =>
        spawnSync(process.execPath, ["--import", preload, bin, ...args], {
          encoding: "utf8",
          cwd: scratch,
          env: { PATH: process.env.PATH ?? "", HOME: scratch, XDG_CACHE_HOME: scratch },
        });
      const fixture = path.join(packageRoot, "../../fixtures/amp/legacy-thread.json");
      const view = run("view", fixture);
      expect(view.status, view.stderr).toBe(0);
      const converted = run("convert", fixture, "--to", "claude_code", "-o", "out.jsonl");
      expect(converted.status, converted.stderr).toBe(0);
      // The control: search does need it, so the preload makes it fail.
      const search = run("search", "anything");
      expect(search.status).not.toBe(0);
      expect(search.stderr).toContain("better-sqlite3 was loaded");
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
  it("builds an executable with a node hashbang", () => {
    const bin = path.join(packageRoot, packageJson.bin.txcript);
    if (!existsSync(bin)) throw new Error("build first: pnpm --filter @txcript/cli build");
    expect(readFileSync(bin, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect(statSync(bin).mode & 0o111).not.toBe(0);
  });
});
