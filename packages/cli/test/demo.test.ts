// The README's first command, as a new user sees it: scripts/demo.mjs builds
// quietly, converts a bundled Amp fixture to stream-json and back with the
// built bin, and views it. The whole output is captured: the build tool's
// banner never shows (a stand-in build that prints one proves it is held
// back, and shown when the build fails), and the loss report is the grouped
// one, bookkeeping folded.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, repoRoot } from "./e2e.js";

beforeAll(assertBuilt);

const scratch = mkdtempSync(path.join(tmpdir(), "txcript-demo-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function fakeBuild(status: number): string {
  const file = path.join(scratch, `build-${status}.sh`);
  writeFileSync(
    file,
    `#!/bin/sh\necho "Attention: Turborepo now collects completely anonymous telemetry"\necho " Tasks:    9 successful, 9 total"\nexit ${status}\n`,
  );
  chmodSync(file, 0o755);
  return file;
}

function demo(build: string) {
  return spawnSync(process.execPath, [path.join(repoRoot, "scripts/demo.mjs")], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: repoRoot, NO_COLOR: "1", TXCRIPT_DEMO_BUILD: build },
  });
}

describe("scripts/demo.mjs (pnpm demo)", () => {
  it("shows txcript's output only: the conversion, the grouped loss report and the view", () => {
    const run = demo(fakeBuild(0));
    expect(run.status, run.stderr).toBe(0);
    const all = `${run.stdout}\n${run.stderr}`;
    expect(all).not.toMatch(/Attention|telemetry|Tasks:/);
    expect(run.stderr.split("\n")[0]).toBe(
      "demo: building the packages (the first run takes a minute)…",
    );
    expect(run.stdout).toMatch(/\$ txcript convert fixtures\/amp\/\S+\.json --to stream_json -o /);
    expect(run.stdout).toMatch(/^\{"type":"system","subtype":"init",.*\}$/m);
    expect(run.stdout).toMatch(/^\{"type":"result",.*\}$/m);
    expect(run.stdout).toMatch(/\$ txcript view .*thread\.json\n.*T-[0-9a-f-]{36}/);
    expect(run.stdout).toMatch(/^#1 user /m);
    // The loss report: headed by leg, grouped by kind, bookkeeping in one line.
    expect(run.stderr).toMatch(/^txcript: losses reading Amp thread:$/m);
    expect(run.stderr).toMatch(/^ {2}(unsupported|degraded): .*\[[\w.-]+\]/m);
    expect(run.stderr).toMatch(
      /^ {2}\+ \d+ bookkeeping fields not carried \[.*\]; --losses all to list them$/m,
    );
    expect(run.stderr).not.toMatch(/bookkeeping was not carried/);
  });
  it("shows the build's output when the build fails, and stops", () => {
    const run = demo(fakeBuild(3));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("Attention");
    expect(run.stderr).toMatch(/demo: the build failed \(exit 3\)/);
    expect(run.stdout).toBe("");
  });
});
