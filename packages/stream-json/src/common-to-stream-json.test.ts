import { commonCodec, fromCanonical, type Transcript, type Warning } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { streamJsonCodec, toStreamJsonInput } from "./index.js";

const transcript: Transcript = {
  meta: {
    id: "T-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
    timestamp: "2026-05-01T09:00:00.000Z",
    cwd: "/work",
    title: "Count files",
    model: "claude-sonnet-4-5",
  },
  messages: [
    {
      role: "user",
      content: [
        { type: "text", text: "count the files" },
        { type: "image", source: { type: "base64", mediaType: "image/png", data: "AAAA" } },
      ],
      timestamp: "2026-05-01T09:00:01.000Z",
    },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Listing." },
        {
          type: "tool_use",
          id: "toolu_1",
          tool: fromCanonical("Bash", { command: "ls", workdir: "/work" }),
        },
      ],
      timestamp: "2026-05-01T09:00:02.000Z",
      stopReason: "tool_use",
      model: "claude-sonnet-4-5",
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          toolUseId: "toolu_1",
          content: { output: "a\nb\n", exitCode: 0 },
          isError: false,
        },
      ],
      timestamp: "2026-05-01T09:00:03.000Z",
    },
    {
      role: "assistant",
      content: [{ type: "text", text: "Two files." }],
      timestamp: "2026-05-01T09:00:04.500Z",
      stopReason: "end_turn",
    },
  ],
};

function written(dialect: "claude" | "amp") {
  const warnings: Warning[] = [];
  const capture = streamJsonCodec.fromCommon(transcript, {
    dialect,
    onWarning: (w) => warnings.push(w),
  });
  const values = capture.lines.map((line) => line.value as Record<string, unknown>);
  return { capture, values, warnings, text: streamJsonCodec.serialize(capture) };
}

describe("fromCommon", () => {
  it("writes one init, the messages, and one closing result", () => {
    for (const dialect of ["claude", "amp"] as const) {
      const { values, text } = written(dialect);
      expect(values.map((value) => value.type)).toEqual([
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "result",
      ]);
      expect(values[0]).toMatchObject({
        subtype: "init",
        cwd: "/work",
        session_id: transcript.meta.id,
        mcp_servers: [],
      });
      expect(values.at(-1)).toMatchObject({
        subtype: "success",
        is_error: false,
        num_turns: 2,
        result: "Two files.",
        duration_ms: 4500,
        session_id: transcript.meta.id,
      });
      expect(text.endsWith("}\n")).toBe(true);
      expect(text.split("\n")).toHaveLength(values.length + 1);
    }
  });
  it("spells tools in the chosen dialect and lists them in init", () => {
    const claude = written("claude").values;
    const amp = written("amp").values;
    expect(claude[0]?.tools).toEqual(["Bash"]);
    expect(amp[0]?.tools).toEqual(["Bash"]);
    const call = (values: Record<string, unknown>[]) =>
      (values[2]!.message as { content: unknown[] }).content[1];
    expect(call(claude)).toEqual({
      type: "tool_use",
      id: "toolu_1",
      name: "Bash",
      input: { command: "ls", workdir: "/work" },
    });
    // One Amp tool era default with @txcript/amp: legacy `Bash {cmd, cwd}`.
    expect(call(amp)).toEqual({
      type: "tool_use",
      id: "toolu_1",
      name: "Bash",
      input: { cmd: "ls", cwd: "/work" },
    });
    expect(
      streamJsonCodec.fromCommon(transcript, { dialect: "amp", toolEra: "modern" }).lines[2]?.value,
    ).toMatchObject({
      message: {
        content: [{}, { name: "shell_command", input: { command: "ls", workdir: "/work" } }],
      },
    });
  });
  it("writes Claude's ids and keys, and none of them for Amp", () => {
    const [init, , assistant] = written("claude").values;
    expect(init).toMatchObject({
      model: "claude-sonnet-4-5",
      claude_code_version: "",
      uuid: expect.any(String),
    });
    expect(assistant).toMatchObject({
      message: {
        id: expect.stringMatching(/^msg_/),
        model: "claude-sonnet-4-5",
        stop_sequence: null,
      },
      uuid: expect.any(String),
    });
    const amp = written("amp").values;
    expect(Object.keys(amp[0] ?? {})).not.toContain("uuid");
    expect(Object.keys((amp[2]?.message as object) ?? {})).not.toContain("id");
    expect(Object.keys((amp[2]?.message as object) ?? {})).not.toContain("model");
  });
  it("writes structured tool output as its JSON text", () => {
    const result = (values: Record<string, unknown>[]) =>
      (values[3]!.message as { content: { content: unknown }[] }).content[0]?.content;
    expect(result(written("claude").values)).toBe('{"output":"a\\nb\\n","exitCode":0}');
    expect(result(written("amp").values)).toBe('{"output":"a\\nb\\n","exitCode":0}');
    // Amp reads it back as the JSON it was; Claude keeps the text the model saw.
    const back = (dialect: "claude" | "amp") =>
      streamJsonCodec.toCommon(streamJsonCodec.parse(written(dialect).text)).messages[2]
        ?.content[0];
    expect(back("amp")).toMatchObject({ content: { output: "a\nb\n", exitCode: 0 } });
    expect(back("claude")).toMatchObject({ content: '{"output":"a\\nb\\n","exitCode":0}' });
  });
  it("reports the losses that occur, per dialect", () => {
    const codes = (dialect: "claude" | "amp") =>
      new Set(written(dialect).warnings.map((w) => w.code));
    expect([...codes("claude")].sort()).toEqual([
      "stream_json.meta-fields",
      "stream_json.structured-tool-result",
    ]);
    expect([...codes("amp")].sort()).toEqual([
      "stream_json.image",
      "stream_json.message-model",
      "stream_json.meta-fields",
      "stream_json.structured-tool-result",
    ]);
  });
  it("is read back in the dialect it was written in", () => {
    for (const dialect of ["claude", "amp"] as const) {
      const back = streamJsonCodec.toCommon(streamJsonCodec.parse(written(dialect).text));
      expect(back.messages[1]?.content[1]).toEqual(transcript.messages[1]?.content[1]);
      expect(back.meta.timestamp).toBe(transcript.meta.timestamp);
    }
  });
});

describe("fromCommon keeps input keys as data", () => {
  // The writer builds its own objects as literals; keys that come from the
  // input (tool inputs, structured results) must stay own data properties.
  const hostileText = '{"__proto__":{"polluted":1},"constructor":"c"}';
  const hostile = JSON.parse(hostileText);
  const tool = fromCanonical("Mystery", hostile);
  const tricky: Transcript = {
    meta: { id: "T-5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b", timestamp: "2026-05-01T09:00:00.000Z" },
    messages: [
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "t1", tool }],
        timestamp: "2026-05-01T09:00:01.000Z",
      },
      {
        role: "user",
        content: [{ type: "tool_result", toolUseId: "t1", content: hostile, isError: false }],
        timestamp: "2026-05-01T09:00:02.000Z",
      },
    ],
  };
  for (const dialect of ["claude", "amp"] as const) {
    it(`writes __proto__ keys as JSON keys and reads them back (${dialect})`, () => {
      const text = streamJsonCodec.serialize(streamJsonCodec.fromCommon(tricky, { dialect }));
      expect(text).toContain('"input":{"__proto__":{"polluted":1},"constructor":"c"}');
      const back = streamJsonCodec.toCommon(streamJsonCodec.parse(text), { dialect });
      const use = back.messages[0]?.content[0];
      const result = back.messages[1]?.content[0];
      if (use?.type !== "tool_use" || result?.type !== "tool_result") throw new Error("shape");
      expect(use.tool).toEqual(tool);
      if (dialect === "claude") expect(result.content).toBe(hostileText);
      else {
        expect(Object.hasOwn(result.content as object, "__proto__")).toBe(true);
        expect(result.content).toEqual(hostile);
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  }
});

describe("fromCommon on long transcripts", () => {
  it("writes 200,000 messages (the closing result's duration takes no argument spread)", () => {
    const start = Date.parse("2026-05-01T09:00:00.000Z");
    const messages: Transcript["messages"] = Array.from({ length: 200_000 }, (_, index) => ({
      role: index % 2 === 0 ? "user" : "assistant",
      content: [{ type: "text", text: `m${index}` }],
      timestamp: new Date(start + 1000 + index).toISOString(),
    }));
    const long: Transcript = {
      meta: { id: "T-long", timestamp: new Date(start).toISOString() },
      messages,
    };
    const { lines } = streamJsonCodec.fromCommon(long, { dialect: "amp" });
    expect(lines).toHaveLength(200_002);
    expect(lines.at(-1)?.value).toMatchObject({
      type: "result",
      duration_ms: 1000 + 199_999,
      num_turns: 100_000,
      result: "m199999",
    });
  });
});

describe("toStreamJsonInput", () => {
  it("writes one --stream-json-input line per prompt, text and images only", () => {
    const lines = toStreamJsonInput(transcript)
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      {
        type: "user",
        message: {
          role: "user",
          content: [
            { type: "text", text: "count the files" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
          ],
        },
      },
    ]);
  });
  it("replays every prompt of a multi-turn conversation, in order", () => {
    const turns = commonCodec.fromCommon({
      ...transcript,
      messages: ["a", "b", "c"].map((text, index) => ({
        role: "user" as const,
        content: [{ type: "text" as const, text }],
        timestamp: `2026-05-01T09:00:0${index}.000Z`,
      })),
    });
    const text = toStreamJsonInput(turns);
    expect(
      text
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line).message.content[0].text),
    ).toEqual(["a", "b", "c"]);
    expect(text.endsWith("\n")).toBe(true);
  });
});
