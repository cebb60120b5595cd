// End-to-end stdin: `-` reads a pipe. `convert -` and `export -` read it to
// its end; `view -` on a stream-json pipe prints each message while the
// stream is still open, and ends with the same text a file view gives.
import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { bin, type Home, txcript, useHome } from "./e2e.js";
import { sampleCommonText } from "./sample.js";

let home: Home;
useHome((fresh) => {
  home = fresh;
});

async function streamJsonSample(): Promise<string> {
  const result = await txcript(home, ["convert", "-", "--to", "stream_json"], {
    stdin: sampleCommonText(),
  });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

describe("stdin input", () => {
  it("converts a piped stream-json capture back to the same conversation", async () => {
    const capture = await streamJsonSample();
    const back = await txcript(home, ["convert", "-", "--to", "common"], { stdin: capture });
    expect(back.code, back.stderr).toBe(0);
    const original = JSON.parse(sampleCommonText());
    const document = JSON.parse(back.stdout);
    expect(document.messages.map((message: { content: unknown }) => message.content)).toEqual(
      original.messages.map((message: { content: unknown }) => message.content),
    );
  });

  it("views a stream-json pipe live, a message as soon as the next begins", async () => {
    const capture = await streamJsonSample();
    const file = path.join(home.work, "capture.jsonl");
    await fs.writeFile(file, capture);
    const lines = capture.trimEnd().split("\n");
    // Up to and including the line that starts message #3 (the tool result).
    const cut = lines.findIndex((line) => line.includes('"tool_result"')) + 1;
    expect(cut).toBeGreaterThan(1);
    const child = spawn(process.execPath, [bin, "view", "-"], { cwd: home.work, env: home.env });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stdin.write(`${lines.slice(0, cut).join("\n")}\n`);
    // Messages #1 and #2 are printed while stdin is still open.
    await expect.poll(() => stdout, { timeout: 10_000, interval: 50 }).toContain("#2 assistant");
    expect(stdout).not.toContain("#3 user");
    child.stdin.end(`${lines.slice(cut).join("\n")}\n`);
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    const fromFile = await txcript(home, ["view", file]);
    expect(stdout).toBe(fromFile.stdout);
  });

  it("views a piped non-stream document whole", async () => {
    const piped = await txcript(home, ["view", "-"], { stdin: sampleCommonText() });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain("#5 user");
    const ranged = await txcript(home, ["view", "-#2-3"], { stdin: sampleCommonText() });
    expect(ranged.stdout).toContain("#3 user");
    expect(ranged.stdout).not.toContain("#4 ");
  });

  it("reports a broken line of a piped stream with <stdin> and its line", async () => {
    const capture = await streamJsonSample();
    const broken = capture.replace(/\n(?=.)/, "\n{not json\n");
    const result = await txcript(home, ["view", "-"], { stdin: broken });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^txcript: <stdin>:2(:\d+)?: .+\n$/);
    const empty = await txcript(home, ["convert", "-", "--to", "common"], { stdin: "" });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/^txcript: <stdin>: cannot tell which harness wrote this input/);
  });
});
