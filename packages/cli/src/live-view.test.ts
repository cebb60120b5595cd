// The live `view -` prints, a message at a time, exactly the text a view of
// the whole capture gives: over every stream-json fixture and over a capture
// built to cross each place the printer restarts its accumulator (split
// assistant lines, lines without timestamps, a uuid repeated far away, lines
// of other kinds in between); and the one documented difference, a split
// answer with a tool result between its parts.
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { toText } from "@txcript/core";
import { readStreamJsonLines, StreamJsonAccumulator } from "@txcript/stream-json";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Io } from "./io.js";
import { liveView } from "./live-view.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const fixtureDirectory = path.join(repoRoot, "fixtures", "stream-json");
const now = new Date("2026-03-04T05:06:07.000Z");

/** The view of the whole capture: one accumulator over every line, then toText. */
async function wholeView(text: string, color: boolean): Promise<string> {
  const accumulator = new StreamJsonAccumulator({ startTime: now });
  for await (const record of readStreamJsonLines(Readable.from([text])))
    accumulator.push({ value: record.value, line: record.line });
  return toText(accumulator.transcript(), { color });
}

/** liveView over `text` arriving in chunks of `chunk` bytes; what it printed, and how many writes. */
async function live(text: string, color: boolean, chunk = 97): Promise<[string, number]> {
  const bytes = Buffer.from(text);
  const pieces: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += chunk)
    pieces.push(bytes.subarray(start, start + chunk));
  let out = "";
  let writes = 0;
  const stdout = new Writable({
    write(data: Buffer, _encoding, done) {
      out += data.toString("utf8");
      writes += 1;
      done();
    },
  });
  const io: Io = { stdin: Readable.from(pieces), stdout, stderr: stdout, env: {}, cwd: "/" };
  await liveView(io, Buffer.alloc(0), color);
  return [out, writes];
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const session = "0c1d2e3f-0000-4000-8000-000000000001";
const uuid = (n: number) => `0c1d2e3f-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
const user = (n: number, text: string, timestamp?: string) => ({
  type: "user",
  session_id: session,
  uuid: uuid(n),
  ...(timestamp === undefined ? {} : { timestamp }),
  message: { role: "user", content: text },
});
const assistant = (n: number, id: string, text: string, timestamp?: string) => ({
  type: "assistant",
  session_id: session,
  uuid: uuid(n),
  ...(timestamp === undefined ? {} : { timestamp }),
  message: {
    id,
    role: "assistant",
    model: n > 20 ? "later-model" : "first-model",
    content: [{ type: "text", text }],
    stop_reason: null,
    usage: { input_tokens: n, output_tokens: 1 },
  },
});

/** A capture that crosses every restart the live view makes. */
function trickyCapture(): string {
  return [
    line({
      type: "system",
      subtype: "init",
      session_id: session,
      cwd: "/w",
      claude_code_version: "2.0.0",
      tools: [],
    }),
    line(user(1, "first, no timestamp")),
    line(assistant(2, "msg_a", "split one", "2026-01-01T00:00:00.000Z")),
    line(assistant(3, "msg_a", "split two")),
    line({ type: "result", subtype: "success", session_id: session }),
    line(user(4, "no timestamp: 1 ms after the last message")),
    line(user(1, "a repeated uuid far away: dropped")),
    line(assistant(5, "msg_b", "stamped", "2026-01-01T00:00:05.000Z")),
    line({ ...assistant(6, "msg_c", "a subagent's"), parent_tool_use_id: "toolu_x" }),
    line(assistant(7, "msg_b", "msg_b again after a subagent line")),
    line(assistant(8, "msg_d", "no timestamp either")),
    line(user(2, "repeated again")),
    line(user(21, "last")),
    line(assistant(22, "msg_e", "the end")),
  ].join("");
}

describe("liveView", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const fixtures = readdirSync(fixtureDirectory).filter((name) => name.endsWith(".jsonl"));
  it("has stream-json fixtures to view", () => {
    expect(fixtures.length).toBeGreaterThan(0);
  });
  for (const name of fixtures) {
    for (const color of [false, true]) {
      it(`prints ${name} (colour ${color}) as the whole view does`, async () => {
        const text = readFileSync(path.join(fixtureDirectory, name), "utf8");
        const [printed] = await live(text, color);
        expect(printed).toBe(await wholeView(text, color));
      });
    }
  }

  it("prints a capture crossing every restart as the whole view does, a message per write", async () => {
    const text = trickyCapture();
    const whole = await wholeView(text, false);
    const [printed, writes] = await live(text, false, 13);
    expect(printed).toBe(whole);
    // The header, then one write per message: each is printed once.
    const messages = whole.match(/^#\d+ /gm)?.length ?? 0;
    expect(messages).toBeGreaterThan(4);
    expect(writes).toBe(messages + 1);
    expect(whole).toContain("#1 user 2026-03-04T05:06:07.000Z");
    expect(whole).toContain("user 2026-01-01T00:00:00.001Z");
  });

  it("prints the part of a split answer after a tool result as a message of its own (documented)", async () => {
    const call = {
      ...assistant(2, "msg_s", "", "2026-01-01T00:00:00.000Z"),
      message: {
        ...assistant(2, "msg_s", "").message,
        content: [{ type: "tool_use", id: "toolu_s", name: "Bash", input: { command: "ls" } }],
      },
    };
    const result = {
      ...user(3, ""),
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_s", content: "a.txt" }],
      },
    };
    const text = [
      line(user(1, "list the files", "2026-01-01T00:00:00.000Z")),
      line(call),
      line(result),
      line(assistant(4, "msg_s", "the rest of the same answer")),
    ].join("");
    const whole = await wholeView(text, false);
    const [printed] = await live(text, false);
    // The whole view merges the parts: three messages; the live one has printed the call by then.
    expect(whole.match(/^#\d+ /gm)).toHaveLength(3);
    expect(printed.match(/^#\d+ /gm)).toHaveLength(4);
    expect(printed).toMatch(/#4 assistant[^\n]*\n[^#]*the rest of the same answer/);
  });

  it("refuses lines of a second session as the accumulator does", async () => {
    const text = `${trickyCapture()}${line({ ...user(30, "other"), session_id: "other" })}`;
    await expect(live(text, false)).rejects.toMatchObject({ code: "AMBIGUOUS" });
  });
});
