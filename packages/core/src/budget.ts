// Fitting a conversation into a context budget, mechanically and offline:
// drop reasoning first, then cut long tool outputs (head and tail kept), then
// long pasted messages, then whole oldest turns — never separating a tool
// call from its result and never leaving an orphan result. Everything cut is
// recorded, so a caller can archive it and tell the resumed agent where.
import { TxcriptError } from "./errors.js";
import type { Json } from "./json.js";
import type { Block, Message, Transcript } from "./model.js";
import { toCanonical } from "./tools.js";

/** Counts the tokens of a text (a real tokenizer, or an estimate). */
export type TokenCounter = (text: string) => number;

/** One thing the budget cut, by the ordinal (1-based) of its message in the input. */
export interface BudgetCut {
  ordinal: number;
  what: "thinking" | "tool-output" | "long-text" | "turn" | "orphan-result";
  /** Tokens before the cut and after it (0 for what was removed whole). */
  tokens: number;
  kept: number;
}

export interface BudgetResult {
  transcript: Transcript;
  cuts: BudgetCut[];
  /** Token count of the input and of the result, by the same counter. */
  before: number;
  after: number;
  /** False when even the last turn alone does not fit. */
  fits: boolean;
}

export interface BudgetOptions {
  /** Tokens an image is counted as (default 1600, about a 1000×1000 picture). */
  imageTokens?: number;
  /** Outputs and texts longer than this many tokens are cut to a head and a tail (default 2000). */
  longTokens?: number;
  /** Characters kept at each end of a cut text (default 2000). */
  keepChars?: number;
  /** Tokens set aside for what the caller adds (the archive note). */
  reserve?: number;
}

/** JSON text of a value; hostile depth is a size error, not a RangeError. */
function jsonText(value: Json): string {
  try {
    return JSON.stringify(value);
  } catch (cause) {
    throw new TxcriptError("TOO_LARGE", "a tool input or output is nested too deeply to count", {
      cause,
    });
  }
}

/** The countable text of a block, as a model would be sent it. */
export function blockText(block: Block): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "thinking":
      return block.text + (block.encrypted ?? "") + (block.signature ?? "");
    case "tool_use": {
      const { name, input } = toCanonical(block.tool);
      return `${name} ${jsonText(input)}`;
    }
    case "tool_result":
      return typeof block.content === "string" ? block.content : jsonText(block.content);
    case "image":
      return "";
    case "compaction":
      return block.summary;
  }
}

function blockTokens(block: Block, count: TokenCounter, imageTokens: number): number {
  return block.type === "image" ? imageTokens : count(blockText(block));
}

function messageTokens(message: Message, count: TokenCounter, imageTokens: number): number {
  let total = 4; // role and framing
  for (const block of message.content) total += blockTokens(block, count, imageTokens);
  return total;
}

/** A prompt: a user message that is not only tool results (turns start at prompts). */
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
export function fitToBudget(
  transcript: Transcript,
  budget: number,
  count: TokenCounter,
  options: BudgetOptions = {},
): BudgetResult {
  const imageTokens = options.imageTokens ?? 1600;
  const longTokens = options.longTokens ?? 2000;
  const keep = options.keepChars ?? 2000;
  const limit = Math.max(0, budget - (options.reserve ?? 0));
  // Work on copies: [original ordinal, message].
  let entries = transcript.messages.map((message, index) => ({
    ordinal: index + 1,
    message: { ...message, content: [...message.content] },
    tokens: messageTokens(message, count, imageTokens),
  }));
  const before = entries.reduce((sum, entry) => sum + entry.tokens, 0);
  let total = before;
  const cuts: BudgetCut[] = [];
  const done = (): BudgetResult => ({
    transcript: { ...transcript, messages: entries.map((entry) => entry.message) },
    cuts,
    before,
    after: total,
    fits: total <= limit,
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

/** A rough, tokenizer-free count: about four characters a token. */
export const estimateTokens: TokenCounter = (text) => Math.ceil(text.length / 4);
