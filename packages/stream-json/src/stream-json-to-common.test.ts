import { readFileSync } from "node:fs";
import path from "node:path";
import { TxcriptError, type Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { fixtureReadOptions, fixturesDirectory } from "./fixtures-support.js";
import { StreamJsonAccumulator, streamJsonCodec, streamJsonLosses } from "./index.js";

const fixture = (name: string) => readFileSync(path.join(fixturesDirectory, name), "utf8");
const read = (text: string, options = {}) =>
  streamJsonCodec.toCommon(streamJsonCodec.parse(text), options);

function warningsOf(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  read(text, {
    ...fixtureReadOptions,
    onWarning: (warning: Warning) =>
      counts.set(warning.code, (counts.get(warning.code) ?? 0) + warning.count),
  });
  return counts;
}

describe("toCommon: Claude Code lines", () => {
  it("merges the lines of one API message (shared message.id) into one message", () => {
    const text = fixture("claude-tools.jsonl");
    const transcript = read(text, fixtureReadOptions);
    const first = transcript.messages[0];
    expect(first?.content.map((block) => block.type)).toEqual(["thinking", "text", "tool_use"]);
    // Each line repeats usage: the last line's counts, never a sum.
    expect(first?.usage).toEqual({
      inputTokens: 3,
      outputTokens: 96,
      cacheReadInputTokens: 12000,
      cacheCreationInputTokens: 4521,
    });
    expect(first?.stopReason).toBe("tool_use");
    expect(first?.timestamp).toBe("2026-05-01T09:30:02.114Z");
    expect(transcript.messages.map((message) => message.role)).toEqual([
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
  });
  it("takes meta from init: session, cwd, model, CLI version", () => {
    const { meta } = read(fixture("claude-tools.jsonl"), fixtureReadOptions);
    expect(meta).toEqual({
      id: "4f1d2c3b-8a9e-4b7c-9d0e-1f2a3b4c5d6e",
      timestamp: "2026-05-01T09:30:02.114Z",
      cwd: "/Users/alice/src/app",
      cliVersion: "2.0.76",
      model: "claude-sonnet-4-5-20250929",
    });
  });
  it("drops a replayed line repeated with the same uuid", () => {
    const transcript = read(fixture("claude-replay-partial.jsonl"), fixtureReadOptions);
    const prompts = transcript.messages.filter(
      (message) => message.role === "user" && message.content[0]?.type === "text",
    );
    expect(prompts).toHaveLength(2);
  });
  it("reads redacted thinking, images, aborted turns and error results", () => {
    const transcript = read(fixture("claude-replay-partial.jsonl"), fixtureReadOptions);
    const [prompt, answer, , , failed, marker, aborted] = transcript.messages;
    expect(prompt?.content[1]).toMatchObject({ type: "image", source: { mediaType: "image/png" } });
    expect(answer?.content[0]).toMatchObject({
      type: "thinking",
      text: "",
      encrypted: expect.any(String),
    });
    expect(failed?.content[0]).toMatchObject({ type: "tool_result", isError: true });
    // Common v2: the compact_boundary line is a compaction marker (a capture holds no summary).
    expect(marker).toMatchObject({
      role: "user",
      content: [{ type: "compaction", summary: "", trigger: "auto", preTokens: 167000 }],
    });
    expect(aborted?.stopReason).toBe("aborted");
    // Common v2: the Task subagent's two lines are its conversation, linked to the call.
    expect(transcript.subagents).toMatchObject([
      {
        id: "toolu_01Tk5Ag9Ub2Wc7Xd1Ye3Zf4G",
        toolUseId: "toolu_01Tk5Ag9Ub2Wc7Xd1Ye3Zf4G",
        messages: [
          { role: "user", content: [{ type: "text" }] },
          {
            role: "assistant",
            model: "claude-haiku-4-5-20251001",
            content: [{ type: "tool_use" }],
          },
        ],
      },
    ]);
    expect(transcript.subagents?.[0]?.subagents).toBeUndefined();
    expect(aborted?.usage).toBeUndefined(); // all-zero usage is no usage
  });
  it("names every line it could not carry", () => {
    const counts = warningsOf(fixture("claude-replay-partial.jsonl"));
    expect(Object.fromEntries(counts)).toMatchObject({
      "stream_json.partial-events": 8,
      "stream_json.run-statistics": 2,
      "stream_json.tool-use-result": 1,
      "stream_json.session-details": 1,
    });
    expect(counts.has("stream_json.system-lines")).toBe(false); // compact_boundary is carried
    const documented = new Set(streamJsonLosses.map((loss) => loss.code));
    for (const code of counts.keys()) expect(documented).toContain(code);
  });
});

describe("toCommon: several runs and several sessions", () => {
  it("reads three init … result runs of one session as one transcript", () => {
    for (const name of ["claude-multi-run.jsonl", "amp-multi-run.jsonl"]) {
      const text = fixture(name);
      expect(text.match(/"subtype":"init"/g)).toHaveLength(3);
      expect(text.match(/"type":"result"/g)).toHaveLength(3);
      const transcript = read(text, fixtureReadOptions);
      const prompts = transcript.messages.filter(
        (message) => message.role === "user" && message.content[0]?.type === "text",
      );
      expect(prompts).toHaveLength(3);
      expect(transcript.messages.at(-1)?.role).toBe("assistant");
    }
  });
  const other = "T-11111111-2222-4333-8444-555555555555";
  const mixed = `${fixture("amp-multi-run.jsonl")}{"type":"system","subtype":"init","cwd":"/x","session_id":"${other}","tools":[],"mcp_servers":[]}\n{"type":"user","message":{"role":"user","content":[{"type":"text","text":"elsewhere"}]},"parent_tool_use_id":null,"session_id":"${other}"}\n`;
  it("refuses lines of two sessions, naming both", () => {
    try {
      read(mixed);
      expect.unreachable();
    } catch (error) {
      expect(TxcriptError.isInstance(error)).toBe(true);
      const txcript = error as TxcriptError;
      expect(txcript.code).toBe("AMBIGUOUS");
      expect(txcript.message).toContain("T-7a1c2e3f-4b5d-4e6f-8a9b-0c1d2e3f4a5b");
      expect(txcript.message).toContain(other);
    }
  });
  it("reads the session the caller picks", () => {
    const picked = read(mixed, { sessionId: other });
    expect(picked.meta.id).toBe(other);
    expect(picked.messages).toHaveLength(1);
    expect(
      read(mixed, { sessionId: "T-7a1c2e3f-4b5d-4e6f-8a9b-0c1d2e3f4a5b" }).messages,
    ).toHaveLength(10);
  });
  it("says which sessions there are when the picked one is absent", () => {
    expect(() => read(mixed, { sessionId: "T-nope" })).toThrowError(/no line of session T-nope/);
  });
  it("refuses a capture that names no session", () => {
    expect(() => read('{"type":"user","message":{"role":"user","content":"x"}}\n')).toThrowError(
      /no line names a session_id/,
    );
  });
});

describe("toCommon: timestamps", () => {
  const line = (extra: string) =>
    `{"type":"user","message":{"role":"user","content":"x"},"session_id":"s"${extra}}`;
  it("stamps untimed lines from the start time, in order, and a line's own timestamp wins", () => {
    const text = [
      line(""),
      line(""),
      line(',"timestamp":"2026-06-01T08:00:00.000Z"'),
      line(""),
      line(',"timestamp":"not a time"'),
    ].join("\n");
    const warnings: Warning[] = [];
    const transcript = read(text, {
      startTime: new Date("2026-05-01T12:00:00.000Z"),
      onWarning: (warning: Warning) => warnings.push(warning),
    });
    expect(transcript.messages.map((message) => message.timestamp)).toEqual([
      "2026-05-01T12:00:00.000Z",
      "2026-05-01T12:00:00.001Z",
      "2026-06-01T08:00:00.000Z",
      "2026-06-01T08:00:00.001Z",
      "2026-06-01T08:00:00.002Z",
    ]);
    expect(transcript.meta.timestamp).toBe("2026-05-01T12:00:00.000Z");
    expect(
      warnings.filter((warning) => warning.code === "stream_json.synthesized-timestamps"),
    ).toHaveLength(4);
  });
});

describe("toCommon: timestamps across boundaries", () => {
  const untimed = '{"type":"user","message":{"role":"user","content":"x"},"session_id":"s"}';
  const timed = (time: string) =>
    `{"type":"user","message":{"role":"user","content":"x"},"session_id":"s","timestamp":"${time}"}`;
  it.each([
    ["a year's end", "1999-12-31T23:59:59.990Z"],
    ["before 1970", "1969-12-31T23:59:59.995Z"],
    ["the year 0000", "0000-01-01T00:00:00.000Z"],
  ])("stamps untimed lines across %s as Date#toISOString does", (_, start) => {
    const count = 1_205;
    const text = Array.from({ length: count }, () => untimed).join("\n");
    const startTime = new Date(start);
    const stamps = read(text, { startTime }).messages.map((message) => message.timestamp);
    const expected = Array.from({ length: count }, (_, index) =>
      new Date(startTime.getTime() + index).toISOString(),
    );
    expect(stamps).toEqual(expected);
  });
  it("formats own timestamps within one second, earlier ones too, in full", () => {
    const text = [
      timed("2026-06-01T08:00:00.500Z"),
      untimed,
      timed("2026-06-01T08:00:00.007Z"),
      timed("2026-06-01T08:00:00.040+00:00"),
      timed("2026-06-01T10:00:00.040+02:00"),
      timed("2026-06-01T08:00:01Z"),
    ].join("\n");
    expect(read(text).messages.map((message) => message.timestamp)).toEqual([
      "2026-06-01T08:00:00.500Z",
      "2026-06-01T08:00:00.501Z",
      "2026-06-01T08:00:00.007Z",
      "2026-06-01T08:00:00.040Z",
      "2026-06-01T08:00:00.040Z",
      "2026-06-01T08:00:01.000Z",
    ]);
  });
});

describe("StreamJsonAccumulator", () => {
  it("gives a snapshot after each line, ending in the codec's transcript", () => {
    const text = fixture("claude-tools.jsonl");
    const accumulator = new StreamJsonAccumulator(fixtureReadOptions);
    expect(accumulator.snapshot()).toBeUndefined();
    const sizes: number[] = [];
    text
      .trimEnd()
      .split("\n")
      .forEach((lineText, index) => {
        accumulator.push({ value: JSON.parse(lineText), line: index + 1 });
        sizes.push(accumulator.snapshot()?.messages.length ?? -1);
      });
    expect(sizes).toEqual([0, 1, 1, 1, 2, 3, 4, 5, 5]);
    expect(accumulator.dialect).toBe("claude");
    expect(accumulator.transcript()).toEqual(read(text, fixtureReadOptions));
  });
  it("does not let a later merge change an earlier snapshot", () => {
    const text = fixture("claude-tools.jsonl").trimEnd().split("\n");
    const accumulator = new StreamJsonAccumulator();
    for (const lineText of text.slice(0, 2)) accumulator.push({ value: JSON.parse(lineText) });
    const early = accumulator.snapshot();
    accumulator.push({ value: JSON.parse(text[2] as string) });
    expect(early?.messages[0]?.content).toHaveLength(1);
    expect(accumulator.snapshot()?.messages[0]?.content).toHaveLength(2);
  });
  it("refuses a line that is not an object, naming its line", () => {
    expect(() => new StreamJsonAccumulator().push({ value: [1], line: 7 })).toThrowError(/line 7/);
  });
});

describe("hostile line fields", () => {
  it("names a line type that is not a string by its kind, never by stringifying it", () => {
    let deep = "[]";
    for (let index = 0; index < 100_000; index += 1) deep = `[${deep}]`;
    for (const type of ['{"toString":null}', "[1,2]", deep, "42"]) {
      const warnings: string[] = [];
      const text = `{"type":"system","subtype":"init","session_id":"s","cwd":"/","tools":[]}\n{"type":${type},"session_id":"s"}\n`;
      streamJsonCodec.toCommon(streamJsonCodec.parse(text), {
        onWarning: (warning) => warnings.push(warning.message),
      });
      expect(
        warnings.some((message) => /^a line of type \(an? \w+\) was dropped$/.test(message)),
        warnings.join("; "),
      ).toBe(true);
    }
  });
  it("treats an empty session_id as no session id", () => {
    expect(() =>
      streamJsonCodec.toCommon(streamJsonCodec.parse('{"session_id":""}\n')),
    ).toThrowError(/no line names a session_id/);
    const transcript = streamJsonCodec.toCommon(
      streamJsonCodec.parse(
        '{"type":"system","subtype":"init","session_id":"s1","cwd":"/","tools":[]}\n{"type":"user","session_id":"","message":{"role":"user","content":[{"type":"text","text":"hi"}]}}\n',
      ),
    );
    expect(transcript.meta.id).toBe("s1");
    expect(transcript.messages).toHaveLength(1);
  });
});
