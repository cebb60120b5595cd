// The expectation side of the continue check (continue-check.ts), on
// hand-made Common messages and archive indexes: what counts as meant to be
// sent, and what a request that lacks it is told.
import { describe, expect, it } from "vitest";
import { compare, expectedFrom, prompt, readIndex } from "./continue-check.js";
import { sentHistory } from "./sent-history.js";

const text = (role: string, value: string, context?: object) => ({
  role,
  content: [{ type: "text", text: value }],
  ...(context ? { context } : {}),
});
const messages = [
  text("user", "first question, before the compaction"),
  {
    role: "user",
    content: [{ type: "compaction", summary: "This session is being continued: summary" }],
  },
  text("user", "injected caveat", { kind: "injected" }),
  { role: "user", content: [{ type: "tool_use", id: "command-1", tool: {} }] },
  {
    role: "user",
    content: [{ type: "tool_result", toolUseId: "command-1", content: "compacted" }],
  },
  text("user", "list   the\nfiles please"),
  { role: "assistant", content: [{ type: "tool_use", id: "call_1", tool: {} }] },
  {
    role: "user",
    content: [{ type: "tool_result", toolUseId: "call_1", content: "a.txt\nb.txt" }],
  },
];
const index = [
  "# What the continued session leaves out",
  "",
  "- messages #1-1: before the last compaction",
  "- message #8: tool output cut to its head and tail (900 tokens, 100 kept)",
].join("\n");

describe("expectedFrom", () => {
  it("reads what index.md left out", () => {
    expect(readIndex(index)).toEqual({
      firstKept: 2,
      cuts: new Map([[8, "tool output cut to its head and tail (900 tokens, 100 kept)"]]),
    });
  });

  it("wants the kept user texts, summaries, the model's calls and their results, and the note", () => {
    const expected = expectedFrom(messages, index);
    expect(expected.userTexts).toEqual([{ ordinal: 6, head: "list the files please" }]);
    expect(expected.summaries).toEqual([
      { ordinal: 2, head: "This session is being continued: summary", history: [] },
    ]);
    // command-1 is a call the person ran (user role): not required as a call.
    expect(expected.calls).toEqual([{ ordinal: 7, id: "call_1" }]);
    expect(expected.results).toEqual([{ ordinal: 8, id: "call_1", head: "a.txt b.txt" }]);
    expect(expected.note).toBe(true);
    // Without an archive, everything is meant to be sent, and no note.
    const whole = expectedFrom(messages, undefined);
    expect(whole.userTexts.map((item) => item.ordinal)).toEqual([1, 6]);
    expect(whole.note).toBe(false);
    // With --full, what precedes the compaction is meant to be sent, whatever the index says.
    const full = expectedFrom(messages, index, true);
    expect(full.userTexts.map((item) => item.ordinal)).toEqual([1, 6]);
  });
});

describe("a failed assistant turn", () => {
  const failed = [
    text("user", "change it"),
    { role: "assistant", stopReason: "aborted", content: [{ type: "tool_use", id: "call_x" }] },
    { role: "assistant", stopReason: "error", content: [{ type: "tool_use", id: "call_y" }] },
    { role: "assistant", stopReason: "tool_use", content: [{ type: "tool_use", id: "call_z" }] },
    { role: "user", content: [{ type: "tool_result", toolUseId: "call_z", content: "done" }] },
  ];
  it("has its calls meant to be sent into a target that sends failed turns", () => {
    expect(expectedFrom(failed, undefined).calls.map((call) => call.id)).toEqual([
      "call_x",
      "call_y",
      "call_z",
    ]);
  });
  it("has none into one that drops them (pi), the other calls and results still", () => {
    const expected = expectedFrom(failed, undefined, false, true);
    expect(expected.calls.map((call) => call.id)).toEqual(["call_z"]);
    expect(expected.results.map((result) => result.id)).toEqual(["call_z"]);
    expect(expected.userTexts.map((item) => item.ordinal)).toEqual([1]);
  });
});

describe("compare", () => {
  const expected = expectedFrom(messages, index);
  const note = "[txcript] Parts of this conversation were left out when it was moved here (x).";
  const good = {
    messages: [
      { role: "user", content: `${note}\nThis session is being continued: summary` },
      { role: "user", content: "list the files please" },
      { role: "assistant", content: [{ type: "tool_use", id: "call_1", name: "Bash", input: {} }] },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "call_1", content: "a.txt\nb.txt" }],
      },
      { role: "user", content: prompt },
    ],
  };
  it("passes a request that carries everything", () => {
    expect(compare(sentHistory("anthropic", good), expected)).toEqual([]);
  });
  it("names what a request lacks", () => {
    const lacking = {
      messages: [
        { role: "user", content: "list the files" },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "call_1", content: "other" }],
        },
        { role: "user", content: "go" },
      ],
    };
    expect(compare(sentHistory("anthropic", lacking), expected)).toEqual([
      expect.stringMatching(/orphan tool_result call_1/),
      "the new prompt is not in a user turn",
      expect.stringMatching(/user text of message #6 missing/),
      expect.stringMatching(/compaction summary of message #2 missing/),
      expect.stringMatching(/tool call call_1 \(message #7\) missing/),
      expect.stringMatching(/result of call_1 \(message #8\) does not carry its text/),
      "the left-out note is not sent",
    ]);
  });
});

describe("a compaction that recorded the history it sent instead", () => {
  it("is carried by that history's user texts as well as by its summary", () => {
    const compacted = [
      {
        role: "user",
        content: [
          {
            type: "compaction",
            summary: "placeholder summary",
            history: [text("user", "the kept question")],
          },
        ],
      },
    ];
    const expected = expectedFrom(compacted, undefined);
    const request = (content: string) =>
      sentHistory("responses", {
        input: [
          { type: "message", role: "user", content },
          { type: "message", role: "user", content: prompt },
        ],
      });
    expect(compare(request("the kept question"), expected)).toEqual([]);
    expect(compare(request("placeholder summary"), expected)).toEqual([]);
    expect(compare(request("something else"), expected)).toEqual([
      expect.stringMatching(/compaction summary of message #1 missing/),
    ]);
  });
});

describe("a result string that holds serialized content", () => {
  it("is carried by its text parsed out as well as verbatim", () => {
    const wrapped = JSON.stringify([{ type: "text", text: "the real output" }]);
    const expected = expectedFrom(
      [
        { role: "assistant", content: [{ type: "tool_use", id: "c1" }] },
        { role: "user", content: [{ type: "tool_result", toolUseId: "c1", content: wrapped }] },
      ],
      undefined,
    );
    const request = (output: string) =>
      sentHistory("responses", {
        input: [
          { type: "function_call", call_id: "c1", name: "x", arguments: "{}" },
          { type: "function_call_output", call_id: "c1", output },
          { type: "message", role: "user", content: prompt },
        ],
      });
    expect(compare(request("the real output"), expected)).toEqual([]);
    expect(compare(request(wrapped), expected)).toEqual([]);
    expect(compare(request("other"), expected)).toEqual([
      expect.stringMatching(/result of c1 \(message #2\) does not carry its text/),
    ]);
  });
});
