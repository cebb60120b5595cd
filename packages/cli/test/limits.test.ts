// End-to-end size limit and write-side errors: an input past
// TXCRIPT_MAX_INPUT_BYTES (a small limit here, the default is 500 MiB) is
// refused before it is read, naming the file or <stdin>; a live `view -`
// pipe is not limited; an error met while writing names the input it
// concerns. Every error is one line and writes nothing.
import { promises as fs, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { fixturesRoot, type Home, listFiles, txcript, useHome } from "./e2e.js";

let home: Home;
useHome((fresh) => {
  home = fresh;
});

const ampFixture = path.join(fixturesRoot, "amp/export-thread.json");
const streamFixture = path.join(fixturesRoot, "stream-json/claude-multi-run.jsonl");
const ampSize = readFileSync(ampFixture).length;
const limited = (bytes: number) => ({ env: { TXCRIPT_MAX_INPUT_BYTES: String(bytes) } });
const oneLine = /^txcript: [^\n]+\n$/;

describe("the input size limit", () => {
  it("refuses a file past the limit by its size, naming it, for every reading command", async () => {
    await fs.copyFile(ampFixture, path.join(home.work, "thread.json"));
    const limit = ampSize - 1;
    for (const args of [
      ["view", "thread.json"],
      ["export", "thread.json", "-o", "out.json"],
      ["convert", "thread.json", "--to", "stream_json", "-o", "out.jsonl"],
      ["continue", "thread.json", "--with", "claude_code", "--no-resume"],
    ]) {
      const result = await txcript(home, args, limited(limit));
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr).toMatch(oneLine);
      expect(result.stderr).toBe(
        `txcript: thread.json: file is ${ampSize} bytes, past the limit of ${limit} (set by TXCRIPT_MAX_INPUT_BYTES)\n`,
      );
    }
    expect(await listFiles(home.work)).toEqual(["thread.json"]);
    expect(await listFiles(path.join(home.claudeConfig, "projects"))).toEqual([]);
  });

  it("reads a file exactly at the limit", async () => {
    const result = await txcript(home, ["view", ampFixture], limited(ampSize));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("#1 user");
  });

  it("names a stored session's path when it is past the limit", async () => {
    const id = JSON.parse(readFileSync(ampFixture, "utf8")).id as string;
    await fs.copyFile(ampFixture, path.join(home.ampThreads, `${id}.json`));
    const result = await txcript(home, ["view", id], limited(1000));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(oneLine);
    expect(result.stderr).toContain(`${path.join(home.ampThreads, id)}.json: file is`);
  });

  it("reports a batch file past the limit and converts the rest", async () => {
    const input = path.join(home.work, "in");
    await fs.mkdir(input);
    await fs.copyFile(ampFixture, path.join(input, "big.json"));
    await fs.copyFile(streamFixture, path.join(input, "small.jsonl"));
    const limit = readFileSync(streamFixture).length;
    const result = await txcript(
      home,
      ["convert", "in", "--to", "common", "--out-dir", "out"],
      limited(limit),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`txcript: big.json: file is ${ampSize} bytes, past the limit`);
    expect(await listFiles(path.join(home.work, "out"))).toEqual(["small.common.json"]);
  });

  it("refuses stdin past the limit as it arrives, naming <stdin>", async () => {
    const text = readFileSync(ampFixture, "utf8");
    const limit = 4000;
    for (const args of [
      ["convert", "-", "--to", "common", "-o", "out.json"],
      ["export", "-"],
      ["view", "-"],
    ]) {
      const result = await txcript(home, args, { stdin: text, ...limited(limit) });
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr).toBe(
        `txcript: <stdin>: input is more than ${limit} bytes, past the limit (set by TXCRIPT_MAX_INPUT_BYTES)\n`,
      );
      expect(result.stdout).toBe("");
    }
    expect(await listFiles(home.work)).toEqual([]);
  });

  it("does not limit a live view of a stream-json pipe, only a ranged (whole) read of it", async () => {
    // A capture whose messages carry their timestamps, so a file view and a pipe agree.
    const capture = path.join(fixturesRoot, "stream-json/claude-tools.jsonl");
    const text = readFileSync(capture, "utf8");
    const limit = Math.floor(text.length / 2);
    const whole = await txcript(home, ["view", capture]);
    const piped = await txcript(home, ["view", "-"], { stdin: text, ...limited(limit) });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toBe(whole.stdout);
    const ranged = await txcript(home, ["view", "-#1-2"], { stdin: text, ...limited(limit) });
    expect(ranged.code).toBe(1);
    expect(ranged.stderr).toMatch(
      /^txcript: <stdin>: input is more than \d+ bytes, past the limit/,
    );
  });

  it("refuses a limit that is not a whole number of bytes", async () => {
    for (const value of ["abc", "0", "-5", "1.5", "1e9"]) {
      const result = await txcript(home, ["view", ampFixture], {
        env: { TXCRIPT_MAX_INPUT_BYTES: value },
      });
      expect(result.code, value).toBe(2);
      expect(result.stderr).toMatch(/^txcript: TXCRIPT_MAX_INPUT_BYTES must be a whole number/);
    }
  });
});

describe("write-side errors", () => {
  /** A Claude Code session that reads fine but whose tool input is too deep to print. */
  function deepSession(): string {
    let input = "1";
    for (let depth = 0; depth < 100_000; depth += 1) input = `[${input}]`;
    const base = {
      sessionId: "5e551011-0000-4000-8000-000000000001",
      cwd: "/",
    };
    const user = {
      type: "user",
      ...base,
      uuid: "a1000000-0000-4000-8000-000000000001",
      parentUuid: null,
      timestamp: "2026-01-05T10:00:00.000Z",
      message: { role: "user", content: "hi" },
    };
    const assistant = {
      type: "assistant",
      ...base,
      uuid: "a1000000-0000-4000-8000-000000000002",
      parentUuid: user.uuid,
      timestamp: "2026-01-05T10:00:01.000Z",
      message: {
        id: "msg_1",
        role: "assistant",
        model: "m",
        content: [{ type: "tool_use", id: "toolu_1", name: "X", input: { deep: "DEEP" } }],
        stop_reason: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    };
    return `${JSON.stringify(user)}\n${JSON.stringify(assistant).replace('"DEEP"', input)}\n`;
  }

  it("names the input file when the writer cannot print it, for export, convert and continue", async () => {
    await fs.writeFile(path.join(home.work, "deep.jsonl"), deepSession());
    const from = ["--from", "claude_code"];
    for (const args of [
      ["export", "deep.jsonl", "-o", "out.json", ...from],
      ["export", "deep.jsonl", ...from],
      ["convert", "deep.jsonl", "--to", "amp", "-o", "out.json", ...from],
      ["convert", "deep.jsonl", "--to", "stream_json", "-o", "out.jsonl", ...from],
      ["convert", "deep.jsonl", "--to", "stream_json", ...from],
      [
        "continue",
        "deep.jsonl",
        "--with",
        "claude_code",
        "--no-resume",
        "--store",
        "store",
        ...from,
      ],
    ]) {
      const result = await txcript(home, args);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr, args.join(" ")).toMatch(
        /^txcript: deep\.jsonl: [^\n]*too deeply[^\n]*\n$/,
      );
    }
    expect(await listFiles(home.work)).toEqual(["deep.jsonl"]);
  });

  it("names the output file when it is the output that fails", async () => {
    await fs.writeFile(path.join(home.work, "out.json"), "taken");
    const result = await txcript(home, ["export", ampFixture, "-o", "out.json"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^txcript: [^\n]*out\.json: [^\n]+\n$/);
    expect(result.stderr).not.toContain("export-thread.json");
  });
});
