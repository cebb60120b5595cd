// End-to-end `txcript convert` and `export` over the bundled fixtures of
// every harness: detection picks the right codec (each export equals the
// `.common.json` beside the fixture), conversions round-trip, losses are
// printed with counts, and --dialect / --from behave as documented.
import { promises as fs, readdirSync } from "node:fs";
import * as path from "node:path";
import { ampProject } from "@txcript/amp";
import { commonCodec } from "@txcript/core";
import { streamJsonProject } from "@txcript/stream-json";
import { describe, expect, it } from "vitest";
import { fixturesRoot, type Home, listFiles, txcript, useHome } from "./e2e.js";

let home: Home;
useHome((fresh) => {
  home = fresh;
});

const fixtures = ["amp", "claude-code", "stream-json"].flatMap((harness) =>
  readdirSync(path.join(fixturesRoot, harness))
    .filter((name) => /\.jsonl?$/.test(name) && !name.endsWith(".common.json"))
    .sort()
    .map((name) => ({ harness, name, file: path.join(fixturesRoot, harness, name) })),
);

/** A copy whose modification time is the start time the stream-json fixtures were read with. */
async function copyOf(file: string): Promise<string> {
  const copy = path.join(home.work, path.basename(file));
  await fs.copyFile(file, copy);
  const start = new Date("2026-05-01T12:00:00.000Z");
  await fs.utimes(copy, start, start);
  return copy;
}

const contents = (text: string) =>
  (JSON.parse(text) as { messages: { role: string; content: unknown }[] }).messages.map(
    (message) => [message.role, message.content],
  );

describe("txcript export of every fixture", () => {
  it("finds fixtures of every harness", () => {
    expect(new Set(fixtures.map((fixture) => fixture.harness))).toEqual(
      new Set(["amp", "claude-code", "stream-json"]),
    );
  });
  for (const { harness, name, file } of fixtures) {
    it(`detects and reads ${harness}/${name} as its .common.json`, async () => {
      const result = await txcript(home, ["export", await copyOf(file)]);
      expect(result.code, result.stderr).toBe(0);
      const expected = await fs.readFile(file.replace(/\.jsonl?$/, ".common.json"), "utf8");
      expect(result.stdout).toBe(expected);
    });
  }
});

describe("txcript convert", () => {
  const amp = path.join(fixturesRoot, "amp", "legacy-thread.json");

  it("converts Amp → stream-json → Amp keeping the conversation, and names the losses", async () => {
    const stream = path.join(home.work, "thread.jsonl");
    const back = path.join(home.work, "thread.json");
    const first = await txcript(home, ["convert", amp, "--to", "stream-json", "-o", stream]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe("");
    expect(first.stderr).toContain("txcript: wrote ");
    // The report: one header per leg, then losses grouped by kind with count and code,
    // distinct cases under a loss whose occurrences differ, bookkeeping folded into one line.
    const lines = first.stderr.split("\n");
    expect(lines).toContain("txcript: losses reading Amp thread:");
    expect(lines).toContain("losses writing stream-json capture of Amp or Claude Code:");
    const losses = lines.filter((line) => /^ {2}(unsupported|degraded): /.test(line));
    expect(losses.length).toBeGreaterThan(0);
    for (const line of losses)
      expect(line).toMatch(
        /^ {2}(unsupported|degraded): (\d+ × )?\S.*\[[\w.-]+\](, \d+ different cases:)?$/,
      );
    expect(losses.some((line) => / \d+ × /.test(line))).toBe(true);
    expect(
      lines.some((line) =>
        /^ {2}\+ \d+ bookkeeping fields not carried \[.*\]; --losses all to list them$/.test(line),
      ),
    ).toBe(true);
    const cases = lines.filter((line) => /^ {6}\d+ × /.test(line));
    expect(cases.some((line) => line.includes('"rejected-by-user"'))).toBe(true);
    expect(cases.some((line) => line.includes('"cancelled"'))).toBe(true);
    const second = await txcript(home, ["convert", stream, "--to", "amp", "-o", back]);
    expect(second.code, second.stderr).toBe(0);
    const original = await txcript(home, ["export", amp]);
    const roundTripped = await txcript(home, ["export", back]);
    // What both legs document losing (user images, thinking providers, ...), as code.
    const expected = ampProject(
      streamJsonProject("amp")(commonCodec.toCommon(commonCodec.parse(original.stdout))),
    );
    expect(contents(roundTripped.stdout)).toEqual(
      expected.messages.map((message) => [message.role, message.content]),
    );
    expect(contents(roundTripped.stdout)).not.toEqual(contents(original.stdout));
  });

  it("writes Amp input in Amp's stream-json dialect by default, and Claude's on --dialect claude", async () => {
    const ampDialect = await txcript(home, ["convert", amp, "--to", "stream_json"]);
    const claudeDialect = await txcript(home, [
      "convert",
      amp,
      "--to",
      "stream_json",
      "--dialect",
      "claude",
    ]);
    const init = (text: string) =>
      JSON.parse(text.split("\n")[0] as string) as Record<string, unknown>;
    expect(init(ampDialect.stdout).session_id).toMatch(/^T-/);
    expect(init(ampDialect.stdout)).not.toHaveProperty("claude_code_version");
    expect(claudeDialect.stdout).not.toBe(ampDialect.stdout);
    expect(claudeDialect.stdout).toMatch(/"uuid":/);
    const usage = await txcript(home, ["convert", amp, "--to", "amp", "--dialect", "claude"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe(
      "txcript: --dialect applies only to --to stream_json (drop --dialect, or convert to stream_json)\n",
    );
  });

  it("reads with --from instead of detecting, and says where the input did not fit", async () => {
    const wrong = await txcript(home, ["convert", amp, "--from", "claude_code", "--to", "common"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      new RegExp(`^txcript: ${amp.replace(/[.]/g, "\\.")}(:\\d+)+: .+\\n$`),
    );
    const right = await txcript(home, ["convert", amp, "--from", "amp", "--to", "common"]);
    expect(right.code).toBe(0);
  });

  it("converts a Claude Code session into an Amp thread file the Amp codec reads back", async () => {
    const session = path.join(fixturesRoot, "claude-code", "split-messages.jsonl");
    const out = path.join(home.work, "thread.json");
    const result = await txcript(home, ["convert", session, "--to", "amp", "-o", out]);
    expect(result.code, result.stderr).toBe(0);
    const view = await txcript(home, ["view", out]);
    expect(view.code).toBe(0);
    expect(view.stdout.split("\n")[0]).toMatch(/(^|· )T-[0-9a-f-]{36} · /);
    expect(await listFiles(home.work)).toEqual(["thread.json"]);
  });
});
