// The README's first command, as a new user runs it after a build:
// scripts/demo.mjs converts a bundled Amp fixture to stream-json and back
// with the built bin and views it. It must print both and exit 0.
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, repoRoot } from "./e2e.js";

beforeAll(assertBuilt);

describe("scripts/demo.mjs (pnpm demo)", () => {
  it("prints the converted stream-json and the view of the round-tripped thread", () => {
    const run = spawnSync(process.execPath, [path.join(repoRoot, "scripts/demo.mjs")], {
      cwd: repoRoot,
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: repoRoot, NO_COLOR: "1" },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\$ txcript convert fixtures\/amp\/\S+\.json --to stream_json -o /);
    expect(run.stdout).toMatch(/^\{"type":"system","subtype":"init",.*\}$/m);
    expect(run.stdout).toMatch(/^\{"type":"result",.*\}$/m);
    expect(run.stdout).toMatch(/\$ txcript view .*thread\.json\n.*T-[0-9a-f-]{36}/);
    expect(run.stdout).toMatch(/^#1 user /m);
  });
});
