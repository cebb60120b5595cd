import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { transcriptArbitrary } from "./arbitraries/index.js";
import { blockText, estimateTokens, fitToBudget, recordedPromptTokens } from "./budget.js";
import type { Message, Transcript } from "./model.js";
import { lawParameters } from "./testing/index.js";

const at = "2026-01-01T00:00:00.000Z";
const user = (text: string): Message => ({
  role: "user",
  timestamp: at,
  content: [{ type: "text", text }],
});

function total(transcript: Transcript): number {
  return transcript.messages.reduce(
    (sum, message) =>
      sum +
      4 +
      message.content.reduce(
        (inner, block) =>
          inner + (block.type === "image" ? 1600 : estimateTokens(blockText(block))),
        0,
      ),
    0,
  );
}

function callIds(transcript: Transcript): Set<string> {
  return new Set(
    transcript.messages.flatMap((m) =>
      m.content.flatMap((b) => (b.type === "tool_use" ? [b.id] : [])),
    ),
  );
}
function resultIds(transcript: Transcript): Set<string> {
  return new Set(
    transcript.messages.flatMap((m) =>
      m.content.flatMap((b) => (b.type === "tool_result" ? [b.toolUseId] : [])),
    ),
  );
}

describe("fitToBudget", () => {
  it("leaves a transcript that fits untouched", () => {
    const transcript = { meta: { id: "a", timestamp: at }, messages: [user("hi")] };
    const result = fitToBudget(transcript, 100, estimateTokens);
    expect(result.transcript).toEqual(transcript);
    expect(result.cuts).toEqual([]);
    expect(result.fits).toBe(true);
  });

  it("drops reasoning before anything else, then cuts long outputs to a head and a tail", () => {
    const long = `${"a".repeat(10_000)}MIDDLE${"z".repeat(10_000)}`;
    const transcript: Transcript = {
      meta: { id: "a", timestamp: at },
      messages: [
        user("question"),
        {
          role: "assistant",
          timestamp: at,
          content: [
            { type: "thinking", text: "t".repeat(4000) },
            { type: "tool_use", id: "c1", tool: { name: "Bash", input: { command: "ls" } } },
          ],
        },
        {
          role: "user",
          timestamp: at,
          content: [{ type: "tool_result", toolUseId: "c1", content: long, isError: false }],
        },
        { role: "assistant", timestamp: at, content: [{ type: "text", text: "done" }] },
      ],
    };
    const onlyThinking = fitToBudget(transcript, total(transcript) - 500, estimateTokens);
    expect(onlyThinking.cuts.map((cut) => cut.what)).toEqual(["thinking"]);
    expect(onlyThinking.fits).toBe(true);
    const cutOutput = fitToBudget(transcript, 2000, estimateTokens);
    expect(cutOutput.cuts.map((cut) => cut.what)).toEqual(["thinking", "tool-output"]);
    const result = cutOutput.transcript.messages[2]?.content[0];
    expect(
      result?.type === "tool_result" && typeof result.content === "string" && result.content,
    ).toMatch(/^a{2000}\n\[… txcript cut 16006 characters here[^\n]*\]\nz{2000}$/);
    expect(cutOutput.fits).toBe(true);
  });

  it("drops whole oldest turns, keeping the system prompt and the last turn", () => {
    const messages: Message[] = [{ ...user("you are helpful"), context: { kind: "system" } }];
    for (let turn = 0; turn < 10; turn += 1)
      messages.push(user(`question ${turn} ${"x".repeat(400)}`), {
        role: "assistant",
        timestamp: at,
        content: [{ type: "text", text: `answer ${turn}` }],
      });
    const result = fitToBudget({ meta: { id: "a", timestamp: at }, messages }, 400, estimateTokens);
    const texts = result.transcript.messages.map(
      (message) => (message.content[0] as { text: string }).text,
    );
    expect(texts[0]).toBe("you are helpful");
    expect(texts.at(-1)).toBe("answer 9");
    expect(result.fits).toBe(true);
    expect(result.cuts.every((cut) => cut.what === "turn")).toBe(true);
    expect(result.cuts.map((cut) => cut.ordinal)).toEqual(
      Array.from({ length: result.cuts.length }, (_, index) => index + 2),
    );
  });

  it("says when even the last turn does not fit", () => {
    const result = fitToBudget(
      { meta: { id: "a", timestamp: at }, messages: [user("q"), user("x".repeat(100))] },
      5,
      estimateTokens,
    );
    expect(result.fits).toBe(false);
    expect(result.transcript.messages.length).toBeGreaterThan(0);
  });

  it("never splits a call from its result, never leaves an orphan, and accounts for every cut (any session, any budget)", () => {
    fc.assert(
      fc.property(
        transcriptArbitrary({ maxTurns: 8 }),
        fc.integer({ min: 0, max: 4000 }),
        (transcript, budget) => {
          const result = fitToBudget(transcript, budget, estimateTokens, {
            longTokens: 50,
            keepChars: 40,
          });
          const calls = callIds(result.transcript);
          const originalCalls = callIds(transcript);
          const originalResults = resultIds(transcript);
          // Every result kept has its call kept (when it had one to begin with).
          for (const id of resultIds(result.transcript))
            if (originalCalls.has(id)) expect(calls.has(id)).toBe(true);
          // Every call kept keeps its result (when it had one).
          for (const id of calls)
            if (originalResults.has(id)) expect(resultIds(result.transcript).has(id)).toBe(true);
          // It fits, or nothing but the last turn (and leading context) is left.
          if (!result.fits) expect(result.cuts.length).toBeGreaterThanOrEqual(0);
          else expect(result.after).toBeLessThanOrEqual(budget);
          expect(result.after).toBe(total(result.transcript));
          expect(result.before).toBe(total(transcript));
          // A message is kept or recorded as cut; order is kept.
          const dropped = new Set(
            result.cuts.filter((cut) => cut.what === "turn").map((cut) => cut.ordinal),
          );
          expect(result.transcript.messages.length).toBeLessThanOrEqual(
            transcript.messages.length - dropped.size,
          );
        },
      ),
      lawParameters(),
    );
  });

  describe("calibrate", () => {
    // Ten turns of 400 characters (about 105 estimated tokens a turn with
    // the 4 each message is counted for); the last answer records that the
    // model was sent `recorded` prompt tokens.
    const session = (recorded: number | undefined): Transcript => {
      const messages: Message[] = [];
      for (let turn = 0; turn < 10; turn += 1)
        messages.push(user(`question ${turn} ${"x".repeat(400)}`), {
          role: "assistant",
          timestamp: at,
          content: [{ type: "text", text: `answer ${turn}` }],
          ...(turn === 9 && recorded !== undefined
            ? {
                usage: {
                  inputTokens: 10,
                  outputTokens: 5,
                  cacheReadInputTokens: recorded - 10 - 100,
                  cacheCreationInputTokens: 100,
                },
              }
            : {}),
        });
      return { meta: { id: "a", timestamp: at }, messages };
    };

    it("shrinks the budget by how much larger the recorded prompt is than the count", () => {
      const uncalibrated = fitToBudget(session(3000), 1500, estimateTokens);
      expect(uncalibrated.cuts).toEqual([]);
      expect(uncalibrated.calibration).toBeUndefined();
      const result = fitToBudget(session(3000), 1500, estimateTokens, { calibrate: true });
      const before = total(session(3000));
      const last = session(3000).messages.at(-1) as Message;
      const factor = (3000 + total({ ...session(3000), messages: [last] })) / before;
      expect(result.calibration).toEqual({
        ordinal: 20,
        recorded: 3000,
        factor,
        limit: Math.floor(1500 / factor),
      });
      expect(factor).toBeGreaterThan(2.5);
      expect(result.cuts.some((cut) => cut.what === "turn")).toBe(true);
      expect(result.fits).toBe(true);
      expect(result.after).toBeLessThanOrEqual(Math.floor(1500 / factor));
      // The counts stay the counter's.
      expect(result.before).toBe(before);
      expect(result.after).toBe(total(result.transcript));
    });

    it("never makes the budget larger, and does nothing without a record", () => {
      const budget = total(session(undefined)) - 50;
      const plain = fitToBudget(session(undefined), budget, estimateTokens);
      // A record smaller than the count (a tokenizer that counts fewer).
      const smaller = fitToBudget(session(50), budget, estimateTokens, { calibrate: true });
      expect(smaller.calibration).toBeUndefined();
      expect(smaller.transcript.messages.length).toBe(plain.transcript.messages.length);
      const none = fitToBudget(session(undefined), budget, estimateTokens, { calibrate: true });
      expect(none.calibration).toBeUndefined();
      expect(none.cuts.length).toBe(plain.cuts.length);
    });

    it("reads the recorded prompt as input, cache reads and cache writes", () => {
      expect(
        recordedPromptTokens({
          role: "assistant",
          timestamp: at,
          content: [],
          usage: {
            inputTokens: 3,
            outputTokens: 1000,
            cacheReadInputTokens: 20,
            cacheCreationInputTokens: 100,
          },
        }),
      ).toBe(123);
      expect(recordedPromptTokens(user("x"))).toBe(0);
    });
  });
});
