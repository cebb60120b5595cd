import { TxcriptError, validateTranscript, type Warning } from "@txcript/core";
import { jsonArbitrary } from "@txcript/core/arbitraries";
import { lawParameters, txcriptErrorOf } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ampCodec } from "./amp-codec.js";

const base = { v: 3, id: "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001", created: 1768178184664 };

function convert(document: object, warnings: Warning[] = []) {
  return ampCodec.toCommon(ampCodec.parse(JSON.stringify(document)), {
    onWarning: (warning) => warnings.push(warning),
  });
}

describe("ampCodec.parse", () => {
  it("keeps the text's final newline or its absence", () => {
    const compact = JSON.stringify({ ...base, messages: [] }, null, 2);
    expect(ampCodec.serialize(ampCodec.parse(compact))).toBe(compact);
    expect(ampCodec.serialize(ampCodec.parse(`${compact}\n`))).toBe(`${compact}\n`);
  });
  it("keeps key order and __proto__ keys as data", () => {
    const text = '{"messages":[{"role":"user","content":[],"__proto__":{"x":1}}],"id":"T-a","v":1}';
    const native = ampCodec.parse(text);
    expect(JSON.stringify(native.document)).toBe(text);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
  it("maps failures onto TxcriptError codes with a location", () => {
    const syntax = txcriptErrorOf(() => ampCodec.parse('{\n  "v": 1,\n  oops', { file: "t.json" }));
    expect([syntax.code, syntax.location.file, syntax.location.line]).toEqual([
      "INVALID_JSON",
      "t.json",
      3,
    ]);
    expect(txcriptErrorOf(() => ampCodec.parse("[]")).code).toBe("INVALID_DOCUMENT");
    expect(txcriptErrorOf(() => ampCodec.parse('{"v":1}')).location.path).toBe("$.messages");
    expect(txcriptErrorOf(() => ampCodec.parse('{"messages":[1]}')).location.path).toBe(
      "$.messages[0]",
    );
  });
  it("detects thread documents by the v key, and nothing else", () => {
    expect(ampCodec.detect(JSON.stringify({ ...base, messages: [] }, null, 2))).toBe(true);
    expect(ampCodec.detect('{"format":"txcript.common/v1","meta":{}}')).toBe(false);
    expect(ampCodec.detect('{"type":"system","subtype":"init"}\n')).toBe(false);
    expect(ampCodec.detect("")).toBe(false);
  });
});

describe("ampCodec.toCommon", () => {
  it("refuses a thread without id or created, naming the path", () => {
    expect(txcriptErrorOf(() => convert({ created: 1, messages: [] })).location.path).toBe("$.id");
    expect(txcriptErrorOf(() => convert({ id: "T-x", messages: [] })).location.path).toBe(
      "$.created",
    );
    expect(txcriptErrorOf(() => convert({ id: "T-x", created: 1e20, messages: [] })).code).toBe(
      "INVALID_DOCUMENT",
    );
  });
  it("reads meta from created, title, env trees and platform", () => {
    const transcript = convert({
      ...base,
      title: "t",
      env: {
        initial: {
          trees: [
            { uri: "file:///a%20b/%C3%BC", repository: { type: "git", ref: "refs/heads/feat/x" } },
          ],
          platform: { clientVersion: "0.0.1" },
        },
      },
      messages: [],
    });
    expect(transcript.meta).toEqual({
      id: base.id,
      timestamp: "2026-01-12T00:36:24.664Z",
      cwd: "/a b/ü",
      gitBranch: "feat/x",
      title: "t",
      cliVersion: "0.0.1",
    });
  });
  it("inherits the last seen timestamp, starting from created", () => {
    const transcript = convert({
      ...base,
      messages: [
        { role: "assistant", content: [], state: { type: "complete", stopReason: "end_turn" } },
        { role: "user", meta: { sentAt: 1768178200000 }, content: [] },
        { role: "user", content: [] },
        { role: "assistant", content: [], usage: { timestamp: "2026-01-12T01:00:00Z" } },
        { role: "assistant", content: [], usage: { timestamp: "not a time" } },
      ],
    });
    expect(transcript.messages.map((message) => message.timestamp)).toEqual([
      "2026-01-12T00:36:24.664Z",
      "2026-01-12T00:36:40.000Z",
      "2026-01-12T00:36:40.000Z",
      "2026-01-12T01:00:00.000Z",
      "2026-01-12T01:00:00.000Z",
    ]);
  });
  it("maps state to stop reasons: cancelled → aborted, streaming and stateless → none", () => {
    const states = [
      { type: "complete", stopReason: "max_tokens" },
      { type: "cancelled" },
      { type: "streaming" },
      undefined,
    ];
    const transcript = convert({
      ...base,
      messages: states.map((state) => ({
        role: "assistant",
        content: [],
        ...(state ? { state } : {}),
      })),
    });
    expect(transcript.messages.map((message) => message.stopReason)).toEqual([
      "max_tokens",
      "aborted",
      undefined,
      undefined,
    ]);
  });
  it("skips unmodeled blocks and roles and malformed tool blocks, counting them", () => {
    const warnings: Warning[] = [];
    const transcript = convert(
      {
        ...base,
        messages: [
          { role: "info", content: [] },
          {
            role: "user",
            content: [
              { type: "manual_bash_invocation", args: {} },
              { type: "tool_result", toolUseID: "x" },
              { type: "tool_use", name: "Bash", input: {} },
              { type: "image", source: { type: "url", url: "https://x" } },
              "not a block",
              { type: "text", text: "kept" },
            ],
          },
        ],
      },
      warnings,
    );
    expect(transcript.messages).toEqual([
      {
        role: "user",
        content: [{ type: "text", text: "kept" }],
        timestamp: "2026-01-12T00:36:24.664Z",
      },
    ]);
    const unmodeled = warnings.filter((warning) => warning.code === "amp.unmodeled-block");
    expect(unmodeled.map((warning) => [warning.count, warning.path])).toEqual([
      [1, "$.messages[1].content[0]"],
      [1, "$.messages[1].content[1]"],
      [1, "$.messages[1].content[2]"],
      [1, "$.messages[1].content[3]"],
      [1, "$.messages[1].content[4]"],
    ]);
    expect(new Set(unmodeled.map((warning) => warning.message)).size).toBe(5);
    expect(warnings.find((warning) => warning.code === "amp.unmodeled-role")?.count).toBe(1);
  });
  it("reads usage, model and the thread model from the first assistant with one", () => {
    const transcript = convert({
      ...base,
      messages: [
        { role: "assistant", content: [], state: { type: "complete" } },
        {
          role: "assistant",
          content: [],
          usage: {
            model: "m1",
            inputTokens: 1,
            outputTokens: 2,
            cacheReadInputTokens: 3,
            credits: 4,
          },
        },
        {
          role: "assistant",
          content: [],
          usage: { model: "m2", inputTokens: -1, outputTokens: 2 },
        },
      ],
    });
    expect(transcript.meta.model).toBe("m1");
    expect(transcript.messages[1]?.usage).toEqual({
      inputTokens: 1,
      outputTokens: 2,
      cacheReadInputTokens: 3,
      cacheCreationInputTokens: 0,
    });
    expect(transcript.messages[2]?.usage).toBeUndefined();
    expect(transcript.messages[2]?.model).toBe("m2");
  });
});

describe("hostile values in loss messages", () => {
  const deep = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
  function messagesOf(text: string): Warning[] {
    const warnings: Warning[] = [];
    ampCodec.toCommon(ampCodec.parse(text), { onWarning: (warning) => warnings.push(warning) });
    return warnings;
  }
  function thread(messages: string): string {
    return `{"v":1,"id":"T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001","created":1768178184664,"messages":[${messages}]}`;
  }
  it("describes a role nested 100,000 deep by its kind, never serializing it", () => {
    const warnings = messagesOf(thread(`{"role":${deep(100_000)},"content":[]}`));
    const role = warnings.find((warning) => warning.code === "amp.unmodeled-role");
    expect(role?.message).toBe("a message with an array role was skipped");
    expect(role?.path).toBe("$.messages[0]");
  });
  it("cuts a long role, block type or run status with quote", () => {
    const long = "x".repeat(100_000);
    const shown = `"${"x".repeat(40)}…"`;
    const warnings = messagesOf(
      thread(
        `{"role":"${long}"},{"role":"assistant","content":[{"type":"${long}"}]},` +
          `{"role":"user","content":[{"type":"tool_result","toolUseID":"t","run":{"status":"${long}"}}]}`,
      ),
    );
    const byCode = Object.fromEntries(warnings.map((warning) => [warning.code, warning.message]));
    expect(byCode["amp.unmodeled-role"]).toBe(`a message with ${shown} role was skipped`);
    expect(byCode["amp.unmodeled-block"]).toBe(`a ${shown} block has no Common counterpart`);
    expect(byCode["amp.status-collapsed"]).toBe(`a ${shown} tool run became an error result`);
    for (const warning of warnings) expect(warning.message.length).toBeLessThan(200);
  });
  it("names other roles by kind: object, number, boolean, null, missing", () => {
    const roleWarning = (message: string) =>
      messagesOf(thread(message)).find((warning) => warning.code === "amp.unmodeled-role");
    const roles = ['{"a":1}', "7", "true", "null"];
    for (const [index, role] of roles.entries()) {
      const warning = roleWarning(`{"role":${role}}`);
      expect(warning?.message).toBe(
        `a message with ${["an object", "a number", "a boolean", "no"][index]} role was skipped`,
      );
    }
    expect(roleWarning("{}")?.message).toBe("a message with no role was skipped");
  });
});

describe("toCommon is total over thread-shaped JSON", () => {
  const value = fc.oneof(jsonArbitrary, fc.constantFrom(null, "", "x", 0, -1, 1.5, 1e300, [], {}));
  const block = fc.record(
    {
      type: fc.constantFrom(
        "text",
        "thinking",
        "tool_use",
        "tool_result",
        "image",
        "manual_bash_invocation",
      ),
      text: value,
      thinking: value,
      signature: value,
      provider: value,
      openAIReasoning: fc.oneof(
        value,
        fc.record({ encryptedContent: value }, { requiredKeys: [] }),
      ),
      id: fc.oneof(value, fc.constant("toolu_1")),
      name: fc.oneof(value, fc.constantFrom("Bash", "Read", "shell_command", "todo_write")),
      input: fc.oneof(
        value,
        fc.record(
          { cmd: value, path: value, read_range: value, todos: value },
          { requiredKeys: [] },
        ),
      ),
      toolUseID: fc.oneof(value, fc.constant("toolu_1")),
      run: fc.oneof(
        value,
        fc.record(
          {
            status: fc.oneof(value, fc.constantFrom("done", "error", "cancelled")),
            result: value,
            error: value,
            reason: value,
          },
          { requiredKeys: [] },
        ),
      ),
      source: fc.oneof(
        value,
        fc.record(
          { type: fc.constantFrom("base64", "url"), mediaType: value, data: value },
          { requiredKeys: [] },
        ),
      ),
    },
    { requiredKeys: [] },
  );
  const message = fc.record(
    {
      role: fc.oneof(fc.constantFrom("user", "assistant", "info"), value),
      content: fc.oneof(fc.array(fc.oneof(block, value), { maxLength: 4 }), value),
      meta: fc.oneof(value, fc.record({ sentAt: value }, { requiredKeys: [] })),
      state: fc.oneof(value, fc.record({ type: value, stopReason: value }, { requiredKeys: [] })),
      usage: fc.oneof(
        value,
        fc.record(
          {
            model: value,
            timestamp: value,
            inputTokens: value,
            outputTokens: value,
            cacheReadInputTokens: value,
          },
          { requiredKeys: [] },
        ),
      ),
    },
    { requiredKeys: [] },
  );
  const thread = fc.record(
    {
      v: value,
      id: fc.oneof(value, fc.constant("T-x")),
      created: fc.oneof(value, fc.integer({ min: -1e15, max: 1e15 })),
      title: value,
      env: fc.oneof(
        value,
        fc.record({
          initial: fc.record({ trees: fc.array(fc.record({ uri: value, repository: value })) }),
        }),
      ),
      messages: fc.array(message, { maxLength: 5 }),
    },
    { requiredKeys: ["messages"] },
  );
  it("returns a valid Common transcript or throws TxcriptError", () => {
    fc.assert(
      fc.property(thread, (document) => {
        const text = JSON.stringify(document);
        try {
          validateTranscript(ampCodec.toCommon(ampCodec.parse(text)));
        } catch (error) {
          if (!TxcriptError.isInstance(error)) throw error;
          expect(error.code).toBe("INVALID_DOCUMENT");
        }
      }),
      lawParameters(),
    );
  });
  it("survives hostile nesting inside a tool input", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const text = `{"id":"T-x","created":1,"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"todo_write","input":{"todos":${deep}}}]}]}`;
    try {
      const transcript = ampCodec.toCommon(ampCodec.parse(text));
      expect(ampCodec.serialize(ampCodec.fromCommon(transcript)).length).toBeGreaterThan(0);
    } catch (error) {
      expect(TxcriptError.isInstance(error) && error.code).toBe("TOO_LARGE");
    }
  });
});
