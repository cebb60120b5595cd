import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { transcriptArbitrary } from "./arbitraries/index.js";
import {
  type BudgetCalibration,
  type BudgetCut,
  BudgetFit,
  type BudgetOptions,
  type BudgetResult,
  blockText,
  estimateTokens,
  Fits,
  fitMessages,
  fitToBudget,
  type TokenCounter,
} from "./budget.js";
import type { Block, Message, Transcript } from "./model.js";
import { lawParameters } from "./testing/index.js";

// The fitting algorithm as it stood before fitMessages (one pass over the
// transcript held whole, stage by stage), kept here as the oracle: the
// two-pass fit must give the same result for every input.
function blockTokens(block: Block, count: TokenCounter, imageTokens: number): number {
  return block.type === "image" ? imageTokens : count(blockText(block));
}
function messageTokens(message: Message, count: TokenCounter, imageTokens: number): number {
  let total = 4;
  for (const block of message.content) total += blockTokens(block, count, imageTokens);
  return total;
}
function isPrompt(message: Message): boolean {
  return (
    message.role === "user" &&
    message.context === undefined &&
    message.content.some((block) => block.type !== "tool_result")
  );
}
function cutMiddle(text: string, keep: number): string {
  const removed = text.length - 2 * keep;
  return `${text.slice(0, keep)}\n[… txcript cut ${removed} characters here to fit the context; the whole text is in the archive …]\n${text.slice(-keep)}`;
}

/**
 * Fit `transcript` into `budget` tokens (minus `reserve`). Messages keep
 * their order; the first messages that are context (a system prompt) are
 * never dropped, nor is the last turn.
 */
function referenceFit(
  transcript: Transcript,
  budget: number,
  count: TokenCounter,
  options: BudgetOptions = {},
): BudgetResult {
  const imageTokens = options.imageTokens ?? 1600;
  const longTokens = options.longTokens ?? 2000;
  const keep = options.keepChars ?? 2000;
  let limit = Math.max(0, budget - (options.reserve ?? 0));
  // Work on copies: [original ordinal, message].
  let entries = transcript.messages.map((message, index) => ({
    ordinal: index + 1,
    message: { ...message, content: [...message.content] },
    tokens: messageTokens(message, count, imageTokens),
  }));
  const before = entries.reduce((sum, entry) => sum + entry.tokens, 0);
  // Calibration (BudgetOptions.calibrate): the last message recording its
  // prompt size (input + cache reads + cache writes) says how large the
  // conversation before it was; with the count from it on, that is the
  // session's size by its record. A larger size divides the budget.
  let calibration: BudgetCalibration | undefined;
  const usages = entries.flatMap(({ message, ordinal }) => {
    const usage = message.usage;
    const prompt =
      usage === undefined
        ? 0
        : usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;
    return prompt > 0 ? [{ ordinal, prompt }] : [];
  });
  const record = usages.at(-1);
  if (options.calibrate === true && record !== undefined && before > 0) {
    const rest = entries
      .filter((entry) => entry.ordinal >= record.ordinal)
      .reduce((sum, entry) => sum + entry.tokens, 0);
    const factor = (record.prompt + rest) / before;
    if (factor > 1) {
      calibration = {
        ordinal: record.ordinal,
        recorded: record.prompt,
        factor,
        limit: Math.floor(limit / factor),
      };
      limit = calibration.limit;
    }
  }
  let total = before;
  const cuts: BudgetCut[] = [];
  const done = (): BudgetResult => ({
    transcript: { ...transcript, messages: entries.map((entry) => entry.message) },
    cuts,
    before,
    after: total,
    fits: total <= limit,
    ...(calibration === undefined ? {} : { calibration }),
  });
  const retotal = (entry: (typeof entries)[number]) => {
    const next = messageTokens(entry.message, count, imageTokens);
    total += next - entry.tokens;
    entry.tokens = next;
  };
  if (total <= limit) return done();

  // 1. Reasoning, oldest first.
  for (const entry of entries) {
    if (total <= limit) return done();
    const thinking = entry.message.content.filter((block) => block.type === "thinking");
    if (thinking.length === 0) continue;
    const tokens = thinking.reduce((sum, block) => sum + blockTokens(block, count, imageTokens), 0);
    entry.message.content = entry.message.content.filter((block) => block.type !== "thinking");
    retotal(entry);
    cuts.push({ ordinal: entry.ordinal, what: "thinking", tokens, kept: 0 });
  }
  // 2. Long tool outputs, then 3. long texts the person pasted, oldest first.
  for (const what of ["tool-output", "long-text"] as const) {
    for (const entry of entries) {
      if (total <= limit) return done();
      entry.message.content = entry.message.content.map((block) => {
        if (total > limit && what === "tool-output" && block.type === "tool_result") {
          const text = blockText(block);
          const tokens = count(text);
          if (tokens <= longTokens || text.length <= 2 * keep + 200) return block;
          const cut = cutMiddle(text, keep);
          cuts.push({ ordinal: entry.ordinal, what, tokens, kept: count(cut) });
          return { ...block, content: cut };
        }
        if (
          total > limit &&
          what === "long-text" &&
          block.type === "text" &&
          entry.message.role === "user"
        ) {
          const tokens = count(block.text);
          if (tokens <= longTokens || block.text.length <= 2 * keep + 200) return block;
          const cut = cutMiddle(block.text, keep);
          cuts.push({ ordinal: entry.ordinal, what, tokens, kept: count(cut) });
          return { ...block, text: cut };
        }
        return block;
      });
      retotal(entry);
    }
  }
  if (total <= limit) return done();

  // 4. Whole oldest turns. Leading context messages stay; the last turn stays.
  let head = 0;
  while (head < entries.length && entries[head]?.message.context !== undefined) head += 1;
  const starts: number[] = [];
  for (let index = head; index < entries.length; index += 1)
    if (isPrompt((entries[index] as (typeof entries)[number]).message)) starts.push(index);
  let cutTo = head;
  for (const start of starts.slice(1)) {
    if (total <= limit) break;
    for (let index = cutTo; index < start; index += 1) {
      const entry = entries[index] as (typeof entries)[number];
      total -= entry.tokens;
      cuts.push({ ordinal: entry.ordinal, what: "turn", tokens: entry.tokens, kept: 0 });
    }
    cutTo = Math.max(cutTo, start);
  }
  if (cutTo > head) entries = [...entries.slice(0, head), ...entries.slice(cutTo)];

  // Results whose call went with a dropped turn would be orphans: they go too.
  const calls = new Set<string>();
  for (const entry of entries)
    for (const block of entry.message.content) if (block.type === "tool_use") calls.add(block.id);
  const dropped = new Set(
    transcript.messages.flatMap((message) =>
      message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : [])),
    ),
  );
  for (const id of calls) dropped.delete(id);
  entries = entries.filter((entry) => {
    const orphans = entry.message.content.filter(
      (block) => block.type === "tool_result" && dropped.has(block.toolUseId),
    );
    if (orphans.length === 0) return true;
    const tokens = orphans.reduce((sum, block) => sum + blockTokens(block, count, imageTokens), 0);
    entry.message.content = entry.message.content.filter((block) => !orphans.includes(block));
    cuts.push({ ordinal: entry.ordinal, what: "orphan-result", tokens, kept: 0 });
    if (entry.message.content.length === 0) {
      total -= entry.tokens;
      return false;
    }
    retotal(entry);
    return true;
  });
  return done();
}

const settings = fc.record({
  budget: fc.integer({ min: 0, max: 3000 }),
  longTokens: fc.integer({ min: 1, max: 80 }),
  keepChars: fc.integer({ min: 1, max: 60 }),
  reserve: fc.integer({ min: 0, max: 100 }),
  calibrate: fc.boolean(),
});

// A tokenizer that is not additive over text pieces (as a real one is not): words, rounded up.
const words: TokenCounter = (text) => Math.ceil(text.split(/\s+/).filter(Boolean).length * 1.3);

// Generated texts are short; stretch some tool outputs and user texts past the cut length.
const sessions = fc
  .tuple(transcriptArbitrary({ maxTurns: 10 }), fc.array(fc.nat({ max: 3 }), { minLength: 1 }))
  .map(([transcript, lengths]) => {
    let next = 0;
    const stretch = (text: string) => {
      const times = lengths[next++ % lengths.length] as number;
      return times === 0 ? text : `${text} ${"lorem ipsum dolor ".repeat(20 * times)}${text}`;
    };
    const messages = transcript.messages.map((message) => ({
      ...message,
      content: message.content.map((block): Block => {
        if (block.type === "tool_result" && typeof block.content === "string")
          return { ...block, content: stretch(block.content) };
        if (block.type === "text" && message.role === "user")
          return { ...block, text: stretch(block.text) };
        return block;
      }),
    }));
    return { ...transcript, messages } as Transcript;
  });

describe("fitMessages (two passes) and fitToBudget", () => {
  it("give what the one-pass fit gives, for any session, budget and settings", () => {
    fc.assert(
      fc.property(
        sessions,
        settings,
        fc.boolean(),
        (transcript, { budget, ...options }, byWords) => {
          const count = byWords ? words : estimateTokens;
          const expected = referenceFit(transcript, budget, count, options);
          expect(fitToBudget(transcript, budget, count, options)).toEqual(expected);
          let reads = 0;
          const streamed = fitMessages(
            () => {
              reads += 1;
              return transcript.messages.values();
            },
            budget,
            count,
            options,
          );
          expect(reads).toBe(2);
          expect({ ...streamed, messages: undefined }).toEqual({
            ...expected,
            transcript: undefined,
            messages: undefined,
          });
          expect(streamed.messages).toEqual(expected.transcript.messages);
          // The packed result: the same, its cuts made again each time they are read.
          const fit = new BudgetFit(budget, count, options);
          for (const message of transcript.messages) fit.measure(message);
          for (const message of transcript.messages) fit.keep(message);
          const packed = fit.packedResult();
          expect(packed.cuts.length).toBe(expected.cuts.length);
          expect([...packed.cuts]).toEqual(expected.cuts);
          expect([...packed.cuts]).toEqual(expected.cuts);
          expect({ ...packed, cuts: undefined }).toEqual({
            ...streamed,
            cuts: undefined,
          });
        },
      ),
      lawParameters(),
    );
  });

  it("reaches every stage on generated sessions (the property above is not vacuous)", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(sessions, settings, (transcript, { budget, ...options }) => {
        const result = fitToBudget(transcript, budget, estimateTokens, options);
        for (const cut of result.cuts) seen.add(cut.what);
        if (result.calibration !== undefined) seen.add("calibrated");
      }),
      { ...lawParameters(), numRuns: 300 },
    );
    expect([...seen].sort()).toEqual([
      "calibrated",
      "long-text",
      "thinking",
      "tool-output",
      "turn",
    ]);
  });

  it("drops a result whose call went with a dropped turn, as the one-pass fit does", () => {
    const at = "2026-01-01T00:00:00.000Z";
    const transcript: Transcript = {
      meta: { id: "orphans", timestamp: at },
      messages: [
        { role: "user", timestamp: at, content: [{ type: "text", text: "first ".repeat(200) }] },
        {
          role: "assistant",
          timestamp: at,
          content: [
            { type: "tool_use", id: "call-1", tool: { name: "Bash", input: { command: "ls" } } },
          ],
        },
        {
          role: "user",
          timestamp: at,
          content: [
            { type: "tool_result", toolUseId: "call-1", content: "done", isError: false },
            { type: "text", text: "next" },
          ],
        },
        { role: "assistant", timestamp: at, content: [{ type: "text", text: "ok" }] },
      ],
    };
    const expected = referenceFit(transcript, 40, estimateTokens);
    expect(expected.cuts.map((cut) => cut.what)).toContain("orphan-result");
    expect(fitToBudget(transcript, 40, estimateTokens)).toEqual(expected);
  });

  it("refuses a conversation that reads differently the second time", () => {
    const long: Message = {
      role: "user",
      timestamp: "2026-01-01T00:00:00.000Z",
      content: [{ type: "text", text: "word ".repeat(400) }],
    };
    let reads = 0;
    expect(() =>
      fitMessages(() => (reads++ === 0 ? [long, long] : [long]), 10, estimateTokens),
    ).toThrow(/read differently the second time/);
  });
});

describe("BudgetFit's cost", () => {
  it("counts each block's text once when measuring, and each cut once (not once a stage)", () => {
    const at = "2026-01-01T00:00:00.000Z";
    const output = `${"output line ".repeat(1000)}end`;
    const pasted = `${"pasted words ".repeat(1000)}end`;
    const transcript: Transcript = {
      meta: { id: "once", timestamp: at },
      messages: [
        {
          role: "user",
          timestamp: at,
          content: [
            { type: "text", text: pasted },
            { type: "text", text: "short question" },
          ],
        },
        {
          role: "assistant",
          timestamp: at,
          content: [
            { type: "thinking", text: "mull it over" },
            { type: "tool_use", id: "call-1", tool: { name: "Bash", input: { command: "ls" } } },
          ],
        },
        {
          role: "user",
          timestamp: at,
          content: [{ type: "tool_result", toolUseId: "call-1", content: output, isError: false }],
        },
        { role: "assistant", timestamp: at, content: [{ type: "text", text: output }] },
      ],
    };
    const counted = new Map<string, number>();
    const count: TokenCounter = (text) => {
      counted.set(text, (counted.get(text) ?? 0) + 1);
      return estimateTokens(text);
    };
    const options = { longTokens: 100, keepChars: 50 };
    // A budget the whole fits: measuring is all the counting there is.
    const result = fitMessages(() => transcript.messages, 1_000_000, count, options);
    expect(result.cuts).toEqual([]);
    expect(counted.get(pasted)).toBe(1);
    // The output is counted once as a tool result and once as the assistant's text.
    expect(counted.get(output)).toBe(2);
    expect([...counted.values()].every((times) => times <= 2)).toBe(true);
    // Counted once or not, the fit is the one-pass fit's.
    for (const budget of [0, 100, 600, 3000, 5000]) {
      const expected = referenceFit(transcript, budget, estimateTokens, options);
      expect(fitToBudget(transcript, budget, estimateTokens, options)).toEqual(expected);
    }
  });

  it("Fits keeps each message's counts, flags and cuts as measured", () => {
    const cut = fc.record({ tokens: fc.nat(), kept: fc.nat() });
    const fit = fc.record({
      tokens: fc.tuple(
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.double({ min: 0, max: 2 ** 53, noNaN: true }),
      ),
      thinking: fc.array(cut, { maxLength: 1 }),
      tool: fc.array(cut, { maxLength: 4 }),
      text: fc.array(cut, { maxLength: 4 }),
      prompt: fc.boolean(),
      context: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(fit, { maxLength: 3000 }), (measured) => {
        const fits = new Fits();
        for (const m of measured)
          fits.push({
            tokens: m.tokens,
            cuts: [
              m.thinking.map((c) => ({ what: "thinking" as const, ...c })),
              m.tool.map((c) => ({ what: "tool-output" as const, ...c })),
              m.text.map((c) => ({ what: "long-text" as const, ...c })),
            ],
            prompt: m.prompt,
            context: m.context,
          });
        expect(fits.length).toBe(measured.length);
        measured.forEach((m, index) => {
          for (let stage = 0; stage < 4; stage += 1)
            expect(fits.tokens(index, stage)).toBe(m.tokens[stage]);
          expect(fits.prompt(index)).toBe(m.prompt);
          expect(fits.context(index)).toBe(m.context);
          expect(fits.cuts(index, 1)).toEqual(m.thinking.map((c) => ({ what: "thinking", ...c })));
          expect(fits.cuts(index, 2)).toEqual(m.tool.map((c) => ({ what: "tool-output", ...c })));
          expect(fits.cuts(index, 3)).toEqual(m.text.map((c) => ({ what: "long-text", ...c })));
        });
      }),
      lawParameters(50),
    );
  });
});
