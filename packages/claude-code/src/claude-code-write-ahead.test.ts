// The Claude Code writer's plan without a replay: when a stream's reader
// vouches that no user message holds a tool call (the meta part's
// userToolCalls), there is no user slash command to plan for, and the plan
// reads ahead of the writer for each call's answer (claude-code-write-plan's
// AnswersAhead), replaying only when an answer is not within its window.
// Held to the plan with a replay: the same messages and the same warnings.
import {
  type Message,
  type StreamPart,
  type Transcript,
  transcriptParts,
  type Warning,
} from "@txcript/core";
import { oddShapesArbitrary, transcriptArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { claudeCodeWriteStream } from "./claude-code-stream-write.js";
import { answerWindow, planConversation } from "./claude-code-write-plan.js";
import { commonToClaudeCodeLines } from "./common-to-claude-code.js";

const at = "2026-01-01T00:00:00.000Z";

/** The messages without any tool call on a user message (what a vouching reader hands out). */
function withoutUserCalls(messages: readonly Message[]): Message[] {
  return messages.map((message) =>
    message.role === "user"
      ? { ...message, content: message.content.filter((block) => block.type !== "tool_use") }
      : message,
  );
}

/** The plan's messages and warnings: with a replay first (the reference), or read ahead. */
function planned(messages: readonly Message[], ahead?: { window: number }) {
  const warnings: Warning[] = [];
  let replays = 0;
  const replay = () => {
    replays += 1;
    return messages;
  };
  const options = { onWarning: (warning: Warning) => warnings.push(warning) };
  const plan =
    ahead === undefined
      ? planConversation(messages, options, replay)
      : planConversation(messages, options, replay, false, ahead.window);
  const out = [...plan.messages];
  return { out, warnings, replays };
}

const user = (text: string): Message => ({
  role: "user",
  content: [{ type: "text", text }],
  timestamp: at,
});
const call = (id: string): Message => ({
  role: "assistant",
  content: [{ type: "tool_use", id, tool: { name: "Bash", input: { command: "ls" } } }],
  timestamp: at,
});
const result = (id: string): Message => ({
  role: "user",
  content: [{ type: "tool_result", toolUseId: id, content: "ok", isError: false }],
  timestamp: at,
});

describe("the Claude Code write plan without user tool calls", () => {
  it("gives the replayed plan's messages and warnings, at any window (generated and odd conversations)", () => {
    let fellBack = 0;
    let readAhead = 0;
    fc.assert(
      fc.property(
        fc.oneof(transcriptArbitrary({ maxTurns: 6 }), oddShapesArbitrary()),
        fc.constantFrom(1, 2, 3, answerWindow),
        (transcript, window) => {
          const messages = withoutUserCalls(transcript.messages);
          const reference = planned(messages);
          const ahead = planned(messages, { window });
          expect(ahead.out).toEqual(reference.out);
          expect(ahead.warnings).toEqual(reference.warnings);
          // At most one replay, and only when an answer was beyond the window.
          expect(ahead.replays).toBeLessThanOrEqual(1);
          if (ahead.replays === 1) fellBack += 1;
          else readAhead += 1;
        },
      ),
      lawParameters(300),
    );
    // Both roads were taken.
    expect(fellBack).toBeGreaterThan(0);
    expect(readAhead).toBeGreaterThan(0);
  });

  it("finds an answer within the window without a replay, and one beyond it with one replay", () => {
    const far = [user("go"), call("a"), user("1"), user("2"), user("3"), result("a"), user("end")];
    const reference = planned(far);
    // The answer is found: no result synthesized for the call.
    expect(reference.warnings.map((warning) => warning.code)).not.toContain(
      "claude_code.orphan-tool-use",
    );
    const within = planned(far, { window: 4 });
    expect(within).toEqual({ ...reference, replays: 0 });
    const beyond = planned(far, { window: 3 });
    expect(beyond).toEqual({ ...reference, replays: 1 });
  });

  it("knows a call unanswered when the input ends within the window, without a replay", () => {
    const end = [user("go"), call("a"), user("no answer")];
    const reference = planned(end);
    expect(reference.warnings.map((warning) => warning.code)).toContain(
      "claude_code.orphan-tool-use",
    );
    expect(planned(end, { window: 4 })).toEqual({ ...reference, replays: 0 });
    // A call unanswered mid-conversation, with more than the window after it: one replay.
    const mid = [user("go"), call("a"), user("1"), user("2"), call("b"), result("b")];
    expect(planned(mid, { window: 2 })).toEqual({ ...planned(mid), replays: 1 });
  });

  it("refuses a user slash command after all", () => {
    const command: Message = {
      role: "user",
      content: [{ type: "tool_use", id: "c", tool: { name: "Command", input: { command: "/x" } } }],
      timestamp: at,
    };
    expect(() => planned([user("go"), command], { window: 4 })).toThrow(
      "a user slash command came in a conversation said to have no user tool calls",
    );
  });
});

describe("claudeCodeWriteStream after a reader that vouches for no user tool calls", () => {
  /** The transcript's parts with the meta's userToolCalls set, counting the replays. */
  function vouched(transcript: Transcript, userToolCalls: boolean) {
    let replays = 0;
    const parts = (): Iterable<StreamPart> =>
      [...transcriptParts(transcript)].map((part) =>
        part.kind === "meta" ? { ...part, userToolCalls } : part,
      );
    const warnings: Warning[] = [];
    const text = [
      ...claudeCodeWriteStream(
        {
          parts: parts(),
          replay: () => {
            replays += 1;
            return parts();
          },
        },
        { onWarning: (warning: Warning) => warnings.push(warning) },
      ),
    ].join("");
    return { text, warnings, replays };
  }

  it("writes the whole path's text and warnings, replaying only for an answer beyond the window", () => {
    let replayed = 0;
    fc.assert(
      fc.property(transcriptArbitrary({ maxTurns: 6 }), (generated) => {
        const transcript = { ...generated, messages: withoutUserCalls(generated.messages) };
        const warnings: Warning[] = [];
        // The whole path's lines, each with its newline (as the stream writer gives them).
        let whole = "";
        for (const line of commonToClaudeCodeLines(transcript, {
          onWarning: (warning) => warnings.push(warning),
        }))
          whole += `${line}\n`;
        const streamed = vouched(transcript, false);
        expect(streamed.text).toBe(whole);
        expect(streamed.warnings).toEqual(warnings);
        // Generated conversations answer a call in the next message, or never: no replay.
        expect(streamed.replays).toBe(0);
        // Control: without the reader's word, the plan replays the input.
        const unvouched = vouched(transcript, true);
        expect(unvouched.text).toBe(whole);
        if (unvouched.replays > 0) replayed += 1;
      }),
      lawParameters(100),
    );
    expect(replayed).toBeGreaterThan(0);
  });
});
