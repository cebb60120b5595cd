// The pairing rules of each provider API (sent-history.ts) on hand-made
// request bodies shaped as each API reference shows them, and the recording
// stub (model-stub.ts) answering each API the way its clients parse.
import { describe, expect, it } from "vitest";
import { apiOf, startModelStub } from "./model-stub.js";
import { jsonHeadStrings, sentHistory } from "./sent-history.js";

describe("sentHistory: Anthropic Messages", () => {
  const call = {
    role: "assistant",
    content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: {} }],
  };
  const answer = {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "a.txt" }],
  };
  it("accepts a call answered in the next message", () => {
    const sent = sentHistory("anthropic", {
      messages: [{ role: "user", content: "list" }, call, answer, { role: "user", content: "go" }],
    });
    expect(sent.problems).toEqual([]);
    expect(sent.calls).toEqual([{ id: "toolu_1", name: "Bash" }]);
    expect(sent.results).toEqual([{ id: "toolu_1", text: "a.txt" }]);
    expect(sent.userTexts).toEqual(["list", "go"]);
  });
  it("finds a call without a result and an orphan result", () => {
    expect(
      sentHistory("anthropic", { messages: [call, { role: "user", content: "go" }] }).problems,
    ).toEqual([expect.stringMatching(/tool_use toolu_1 without a tool_result/)]);
    expect(
      sentHistory("anthropic", { messages: [{ role: "user", content: "x" }, answer] }).problems,
    ).toEqual([expect.stringMatching(/orphan tool_result toolu_1/)]);
    // Answered, but not in the message right after the call.
    expect(
      sentHistory("anthropic", { messages: [call, { role: "user", content: "between" }, answer] })
        .problems,
    ).toHaveLength(2);
  });
});

describe("sentHistory: OpenAI Responses", () => {
  it("pairs call_id across function_call and function_call_output, in order", () => {
    const input = [
      { type: "message", role: "user", content: [{ type: "input_text", text: "list" }] },
      { type: "function_call", call_id: "call_1", name: "shell", arguments: "{}" },
      { type: "function_call_output", call_id: "call_1", output: "a.txt" },
      { type: "custom_tool_call", call_id: "call_2", name: "apply_patch", input: "" },
      { type: "custom_tool_call_output", call_id: "call_2", output: "done" },
    ];
    expect(sentHistory("responses", { input }).problems).toEqual([]);
    expect(sentHistory("responses", { input: input.slice(0, 2) }).problems).toEqual([
      expect.stringMatching(/call call_1 \(shell\) without an output/),
    ]);
    expect(sentHistory("responses", { input: [input[0], input[2]] }).problems).toEqual([
      expect.stringMatching(/orphan function_call_output call_1/),
    ]);
    // An output before its call is an orphan too.
    expect(
      sentHistory("responses", { input: [input[0], input[2], input[1]] }).problems,
    ).toHaveLength(1);
  });
});

describe("sentHistory: OpenAI chat completions", () => {
  const assistant = {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "call_1", type: "function", function: { name: "ls", arguments: "{}" } },
      { id: "call_2", type: "function", function: { name: "cat", arguments: "{}" } },
    ],
  };
  const tool = (id: string) => ({ role: "tool", tool_call_id: id, content: `out ${id}` });
  it("needs a tool message for each call right after the assistant message", () => {
    const user = { role: "user", content: "go" };
    expect(
      sentHistory("chat", { messages: [user, assistant, tool("call_1"), tool("call_2"), user] })
        .problems,
    ).toEqual([]);
    expect(
      sentHistory("chat", { messages: [user, assistant, tool("call_1"), user] }).problems,
    ).toEqual([expect.stringMatching(/tool_call call_2 without a tool message/)]);
  });
  it("finds a tool message no assistant tool_calls answers (a call that became text)", () => {
    const sent = sentHistory("chat", {
      messages: [
        { role: "user", content: "/compact" },
        tool("command-1"),
        { role: "user", content: "go" },
      ],
    });
    expect(sent.problems).toEqual([expect.stringMatching(/orphan tool message command-1/)]);
  });
});

describe("sentHistory: Gemini", () => {
  const model = {
    role: "model",
    parts: [{ text: "listing" }, { functionCall: { id: "c1", name: "ls", args: {} } }],
  };
  const response = {
    role: "user",
    parts: [{ functionResponse: { id: "c1", name: "ls", response: { output: "a" } } }],
  };
  it("needs as many functionResponse parts in the next user turn", () => {
    const user = { role: "user", parts: [{ text: "go" }] };
    expect(sentHistory("gemini", { contents: [user, model, response, user] }).problems).toEqual([]);
    expect(
      sentHistory("gemini", { contents: [user, model, user] }).problems.length,
    ).toBeGreaterThan(0);
    expect(sentHistory("gemini", { contents: [user, response] }).problems).toEqual([
      expect.stringMatching(
        /functionResponse part\(s\) in turn #1 with no functionCall turn before/,
      ),
    ]);
    const wrongId = {
      role: "user",
      parts: [{ functionResponse: { id: "c9", name: "ls", response: {} } }],
    };
    expect(sentHistory("gemini", { contents: [user, model, wrongId] }).problems).toEqual([
      expect.stringMatching(/functionCall c1 \(ls\) without its functionResponse/),
    ]);
    const inUser = { role: "user", parts: [{ functionCall: { id: "c2", name: "x", args: {} } }] };
    expect(sentHistory("gemini", { contents: [inUser] }).problems[0]).toMatch(
      /functionCall c2 in a user turn/,
    );
  });
});

describe("the recording model stub", () => {
  it("tells the APIs apart by path", () => {
    expect(apiOf("/v1/messages?beta=true")).toBe("anthropic");
    expect(apiOf("/v1/responses")).toBe("responses");
    expect(apiOf("/v1/chat/completions")).toBe("chat");
    expect(apiOf("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse")).toBe("gemini");
    expect(apiOf("/v1/models")).toBe("other");
  });

  it("answers each API with a valid minimal turn, records every request, and refuses past its limit", async () => {
    const stub = await startModelStub({ limit: 5, lifetimeMs: 60_000 });
    try {
      expect(stub.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const post = (path: string, body: object) =>
        fetch(`${stub.origin}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      const events = (text: string) =>
        text
          .split("\n")
          .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
          .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);

      const anthropic = events(
        await (await post("/v1/messages", { model: "m", stream: true, messages: [] })).text(),
      );
      expect(anthropic.map((event) => event.type)).toEqual([
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
      ]);
      const responses = events(
        await (await post("/v1/responses", { model: "m", stream: true, input: [] })).text(),
      );
      expect(responses.at(-1)).toMatchObject({
        type: "response.completed",
        response: { status: "completed" },
      });
      const chat = events(
        await (
          await post("/v1/chat/completions", { model: "m", stream: true, messages: [] })
        ).text(),
      );
      expect(chat.at(-1)).toMatchObject({ choices: [{ finish_reason: "stop" }] });
      const gemini = events(
        await (
          await post("/v1beta/models/g:streamGenerateContent?alt=sse", { contents: [] })
        ).text(),
      );
      expect(gemini[0]).toMatchObject({
        candidates: [{ content: { parts: [{ text: "ok" }] }, finishReason: "STOP" }],
      });
      expect((await post("/v1/unknown", {})).status).toBe(404);
      expect((await post("/v1/messages", { messages: [] })).status).toBe(503);
      expect(stub.requests.map((request) => request.api)).toEqual([
        "anthropic",
        "responses",
        "chat",
        "gemini",
        "other",
      ]);
      expect(stub.requests[0]?.body).toEqual({ model: "m", stream: true, messages: [] });
    } finally {
      await stub.close();
    }
  });
});

describe("sentHistory: result texts", () => {
  it("reads a structured result by its strings, not their JSON escapes", () => {
    const sent = sentHistory("gemini", {
      contents: [
        { role: "model", parts: [{ functionCall: { id: "c1", name: "ls", args: {} } }] },
        {
          role: "user",
          parts: [{ functionResponse: { id: "c1", name: "ls", response: { output: "a\nb" } } }],
        },
      ],
    });
    expect(sent.results).toEqual([{ id: "c1", text: "a\nb" }]);
  });
});

describe("sentHistory: a tool output Gemini CLI masked", () => {
  // Built as Gemini CLI 0.61.0's ToolOutputMaskingService builds one: the
  // first and last 250 characters of JSON.stringify(response, null, 2).
  const masked = (response: object) => {
    const content = JSON.stringify(response, null, 2);
    const preview =
      content.length > 500
        ? `${content.slice(0, 250)}\n... [TRUNCATED] ...\n${content.slice(-250)}`
        : content;
    return `<tool_output_masked>\n${preview}\n\nOutput too large. Full output available at: /tmp/x/tool-outputs/out.txt\n</tool_output_masked>`;
  };
  const sent = (output: string) =>
    sentHistory("gemini", {
      contents: [
        { role: "model", parts: [{ functionCall: { id: "c1", name: "mcp", args: {} } }] },
        {
          role: "user",
          parts: [{ functionResponse: { id: "c1", name: "mcp", response: { output } } }],
        },
      ],
    }).results[0]?.text ?? "";
  // A result whose text is itself serialized JSON, escaped once more in the preview.
  const original = `${JSON.stringify([{ text: '{\n  "data": {\n    "nextTask": "60.1"' }])}${"x".repeat(900)}`;

  it("is read with its preview's head decoded from its JSON escapes", () => {
    const text = sent(masked({ output: original }));
    expect(text.startsWith(original.slice(0, 120))).toBe(true);
    expect(text).toContain("Output too large. Full output available at:");
  });

  it("control: the masked text as sent does not hold the head; another output's does not either", () => {
    expect(masked({ output: original })).not.toContain(original.slice(0, 60));
    expect(sent(masked({ output: `another output ${"y".repeat(900)}` }))).not.toContain(
      original.slice(0, 60),
    );
  });

  it("a short one, a shell preview and an unmasked output are read as they are", () => {
    expect(sent(masked({ output: 'short "quoted"' }))).toMatch(
      /^short "quoted"\n<tool_output_masked>/,
    );
    const shell =
      "<tool_output_masked>\nOutput: a\nb\n\nOutput too large. Full output available at: /f\n</tool_output_masked>";
    expect(sent(shell)).toBe(`${shell}`);
    expect(sent("<tool_output_masked> not the form")).toBe("<tool_output_masked> not the form");
  });
});

describe("jsonHeadStrings", () => {
  it("gives the values of a JSON text cut anywhere, decoded, without keys", () => {
    expect(jsonHeadStrings('{\n  "output": "a\\nb \\"c\\" \\u00e9", "k": "cut he')).toEqual([
      'a\nb "c" é',
      "cut he",
    ]);
    expect(jsonHeadStrings('{"output": "ends in an escape \\')).toEqual(["ends in an escape "]);
  });
});
