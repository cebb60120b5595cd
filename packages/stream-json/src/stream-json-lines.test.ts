import type { Warning } from "@txcript/core";
import { txcriptErrorOf } from "@txcript/core/testing";
import { describe, expect, it } from "vitest";
import { streamJsonCodec } from "./index.js";

const session = "4f1d2c3b-8a9e-4b7c-9d0e-1f2a3b4c5d6e";
const init = `{"type":"system","subtype":"init","cwd":"/w","session_id":"${session}","tools":[],"mcp_servers":[]}`;
const prompt = `{"type":"user","message":{"role":"user","content":"hi"},"parent_tool_use_id":null,"session_id":"${session}"}`;

describe("streamJsonCodec.parse", () => {
  it("names the line that is not JSON and quotes it cut short", () => {
    const bad = `{"type":"user", oops ${"x".repeat(300)}`;
    const error = txcriptErrorOf(() =>
      streamJsonCodec.parse(`${init}\n${bad}\n${prompt}\n`, { file: "c.jsonl" }),
    );
    expect(error.code).toBe("INVALID_JSON");
    expect(error.message).toMatch(/^line 2 is not JSON/);
    expect(error.location).toMatchObject({ file: "c.jsonl", line: 2 });
    expect(error.hint).toContain('"{\\"type\\":\\"user\\", oops xxx');
    expect(error.hint).toContain("…");
    expect(error.hint?.length).toBeLessThan(200);
  });
  it("refuses a JSON line that is not an object", () => {
    const error = txcriptErrorOf(() => streamJsonCodec.parse(`${init}\n[1,2]\n`));
    expect(error.code).toBe("INVALID_DOCUMENT");
    expect(error.location.line).toBe(2);
  });
  it("tolerates blank lines and CRLF, and writes them back as they were", () => {
    const text = `\n${init}\r\n   \n${prompt}\r\n\n`;
    const capture = streamJsonCodec.parse(text);
    expect(capture.lines.filter((line) => line.value !== null)).toHaveLength(2);
    expect(streamJsonCodec.serialize(capture)).toBe(text);
    expect(streamJsonCodec.toCommon(capture).messages).toHaveLength(1);
  });
  it("keeps a text without a final newline as it was", () => {
    const text = `${init}\n${prompt}`;
    expect(streamJsonCodec.serialize(streamJsonCodec.parse(text))).toBe(text);
  });
  it("keeps a final line cut off mid-write, and skips it with a warning", () => {
    const text = `${init}\n${prompt}\n{"type":"assistant","message":{"type":"mess`;
    const capture = streamJsonCodec.parse(text);
    expect(capture.lines.at(-1)).toEqual({
      value: null,
      text: text.split("\n")[2],
      truncated: true,
    });
    expect(streamJsonCodec.serialize(capture)).toBe(text);
    const warnings: Warning[] = [];
    const transcript = streamJsonCodec.toCommon(capture, { onWarning: (w) => warnings.push(w) });
    expect(transcript.messages).toHaveLength(1);
    expect(warnings.map((w) => w.code)).toContain("stream_json.truncated-line");
  });
  it("treats a cut-off line that is not the last as an error", () => {
    const error = txcriptErrorOf(() => streamJsonCodec.parse(`${init}\n{"type":"assi\n${prompt}`));
    expect(error.code).toBe("INVALID_JSON");
    expect(error.location.line).toBe(2);
  });
  it("splits empty, blank-only and unterminated texts into the lines they hold", () => {
    const blank = { value: null, text: "" };
    expect(streamJsonCodec.parse("")).toEqual({ lines: [blank], finalNewline: false });
    expect(streamJsonCodec.parse("\n")).toEqual({ lines: [blank], finalNewline: true });
    expect(streamJsonCodec.parse("\n\n")).toEqual({ lines: [blank, blank], finalNewline: true });
    expect(streamJsonCodec.parse(" \t")).toEqual({
      lines: [{ value: null, text: " \t" }],
      finalNewline: false,
    });
    const capture = streamJsonCodec.parse(`${init}\n\n${prompt}`);
    expect(capture.finalNewline).toBe(false);
    expect(capture.lines.map((line) => line.text)).toEqual([init, "", prompt]);
    expect(capture.lines.map((line) => line.value?.type ?? null)).toEqual(["system", null, "user"]);
    for (const text of ["", "\n", "\n\n", " \t", `${init}\n\n${prompt}`, `${prompt}\n\n`])
      expect(streamJsonCodec.serialize(streamJsonCodec.parse(text))).toBe(text);
  });
  it("keeps __proto__ keys as data", () => {
    const line = `{"type":"user","message":{"role":"user","content":"x"},"session_id":"${session}","__proto__":{"polluted":1}}`;
    const capture = streamJsonCodec.parse(`${line}\n`);
    expect(streamJsonCodec.serialize(capture)).toBe(`${line}\n`);
    expect(Object.hasOwn(capture.lines[0]?.value ?? {}, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("streamJsonCodec.detect", () => {
  it("recognizes a capture by its first line", () => {
    expect(streamJsonCodec.detect(`\n${init}\n`)).toBe(true);
    expect(streamJsonCodec.detect(`${prompt}\n`)).toBe(true);
  });
  it("does not take Claude Code session files or other JSON for a capture", () => {
    expect(
      streamJsonCodec.detect(
        `{"parentUuid":null,"sessionId":"${session}","type":"user","message":{"role":"user","content":"hi"}}\n`,
      ),
    ).toBe(false);
    expect(streamJsonCodec.detect('{"type":"summary","summary":"x","leafUuid":"y"}\n')).toBe(false);
    expect(streamJsonCodec.detect('{\n  "format": "txcript.common/v1"')).toBe(false);
    expect(streamJsonCodec.detect("")).toBe(false);
  });
});

describe("streamJsonCodec errors", () => {
  const session = "T-5b0c1d2e-3f4a-4b5c-8d6e-7f8a9b0c1d2e";
  it("names the line and JSON path of a message without content", () => {
    const text = `{"type":"user","message":{"role":"user"},"session_id":"${session}"}\n`;
    const error = txcriptErrorOf(() => streamJsonCodec.toCommon(streamJsonCodec.parse(text)));
    expect(error.code).toBe("INVALID_DOCUMENT");
    expect(error.location).toEqual({ line: 1, path: "$.message.content" });
  });
  it("names the block whose field has the wrong type", () => {
    const text = `\n{"type":"assistant","message":{"content":[{"type":"text","text":"a"},{"type":"text","text":7}]},"session_id":"${session}"}\n`;
    const error = txcriptErrorOf(() => streamJsonCodec.toCommon(streamJsonCodec.parse(text)));
    expect(error.code).toBe("INVALID_DOCUMENT");
    expect(error.location).toEqual({ line: 2, path: "$.message.content[1].text" });
  });
  it("keeps an Amp result too deeply nested to carry as JSON as its text", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const text = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":${JSON.stringify(deep)}}]},"session_id":"${session}"}\n`;
    const [message] = streamJsonCodec.toCommon(streamJsonCodec.parse(text)).messages;
    expect(message?.content[0]).toMatchObject({ type: "tool_result", content: deep });
  });
  it("reads an Amp result back as JSON up to a fixed depth, and as text beyond it", () => {
    const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
    const read = (content: string) => {
      const text = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":${JSON.stringify(content)}}]},"session_id":"${session}"}\n`;
      const block = streamJsonCodec.toCommon(streamJsonCodec.parse(text)).messages[0]?.content[0];
      if (block?.type !== "tool_result") throw new Error("expected a tool result");
      return block.content;
    };
    expect(read(nested(1000))).toEqual(JSON.parse(nested(1000)));
    expect(read(nested(1001))).toBe(nested(1001));
    const inObjects = `${'{"a":'.repeat(999)}[]${"}".repeat(999)}`;
    expect(read(inObjects)).toEqual(JSON.parse(inObjects));
    expect(read(`{"a":${inObjects}}`)).toBe(`{"a":${inObjects}}`);
  });
  it("keeps an Amp result whose numbers JSON cannot write again as its text", () => {
    const read = (content: string) => {
      const text = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":${JSON.stringify(content)}}]},"session_id":"${session}"}\n`;
      const block = streamJsonCodec.toCommon(streamJsonCodec.parse(text)).messages[0]?.content[0];
      if (block?.type !== "tool_result") throw new Error("expected a tool result");
      return block.content;
    };
    for (const text of ['{"n":1e400}', '[1,[2,{"x":-1e999}]]', `[${"9".repeat(400)}]`])
      expect(read(text)).toBe(text);
    expect(read('{"n":1e300,"m":[-0,1e-400]}')).toEqual({ n: 1e300, m: [-0, 0] });
    expect(read(' \n{"a":1}')).toEqual({ a: 1 });
    expect(read("{not json")).toBe("{not json");
  });
  it("reports a document too deeply nested to write as TOO_LARGE", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const text = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":${deep}}]},"session_id":"${session}"}\n`;
    const transcript = streamJsonCodec.toCommon(streamJsonCodec.parse(text));
    const error = txcriptErrorOf(() => streamJsonCodec.fromCommon(transcript, { dialect: "amp" }));
    expect(error.code).toBe("TOO_LARGE");
  });
});
