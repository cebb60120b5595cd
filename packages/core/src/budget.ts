// Fitting a conversation into a context budget, mechanically and offline:
// drop reasoning first, then cut long tool outputs (head and tail kept), then
// long pasted messages, then whole oldest turns — never separating a tool
// call from its result and never leaving an orphan result. Everything cut is
// recorded, so a caller can archive it and tell the resumed agent where.
import { TxcriptError } from "./errors.js";
import type { Json } from "./json.js";
import type { Block, Message, Transcript } from "./model.js";
import { IntColumn, NumberColumn, StringIds } from "./stream-intern.js";
import { toCanonical } from "./tool-inputs.js";

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
  /** Present when `calibrate` scaled the budget by the session's recorded usage. */
  calibration?: BudgetCalibration;
}

/**
 * How a fit read the session's own record of its size: the prompt tokens
 * its model reported at message `ordinal` (input, cache reads and cache
 * writes), against the counter's count of the same conversation. `factor`
 * (> 1) is how many times larger the recorded size is; the budget is
 * divided by it (`limit`, in the counter's tokens).
 */
export interface BudgetCalibration {
  ordinal: number;
  recorded: number;
  factor: number;
  limit: number;
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
  /**
   * Calibrate an estimate by the session's recorded usage: when the last
   * message that records its prompt tokens says the conversation up to it
   * is larger than the counter counts (a model's tokenizer against four
   * characters a token), the budget shrinks by that ratio. The recorded
   * size counts the source harness's own system prompt too, so this errs
   * on the side of cutting more. Never makes the budget larger.
   */
  calibrate?: boolean;
}

/** The prompt tokens a message's usage records (0 when none). */
export function recordedPromptTokens(message: Message): number {
  const usage = message.usage;
  return usage === undefined
    ? 0
    : usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens;
}

/**
 * The calibration of a fit whose messages' counts are `fits`, given the
 * last recorded prompt size (`recorded`, at the 0-based `at`): the
 * conversation's size by the record is what was recorded before `at` and
 * the count of everything from `at` on (its answer and what came after).
 * Undefined when it is no larger than the count.
 */
function calibration(
  fits: Fits,
  limit: number,
  recorded: { tokens: number; at: number } | undefined,
): BudgetCalibration | undefined {
  if (recorded === undefined) return undefined;
  let total = 0;
  let after = 0;
  for (let at = 0; at < fits.length; at += 1) {
    const tokens = fits.tokens(at, 0);
    total += tokens;
    if (at >= recorded.at) after += tokens;
  }
  const factor = (recorded.tokens + after) / total;
  if (!(total > 0 && factor > 1)) return undefined;
  return {
    ordinal: recorded.at + 1,
    recorded: recorded.tokens,
    factor,
    limit: Math.floor(limit / factor),
  };
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

/** A fit's settings, with their defaults filled in. */
interface FitSettings {
  count: TokenCounter;
  imageTokens: number;
  longTokens: number;
  keep: number;
}

function fitSettings(count: TokenCounter, options: BudgetOptions): FitSettings {
  return {
    count,
    imageTokens: options.imageTokens ?? 1600,
    longTokens: options.longTokens ?? 2000,
    keep: options.keepChars ?? 2000,
  };
}

/** The stages that shrink a message in place, in the order they run (1, 2, 3). */
type Stage = "thinking" | "tool-output" | "long-text";

/**
 * What fitting needs to know of one message, from the message alone:
 * its tokens as it stands and after each stage (messageTokens is a sum over
 * blocks, so each stage's effect is the sum of its cuts), what each stage
 * would cut, and whether it starts a turn or is context.
 */
export interface MessageFit {
  /** Tokens as it stands, then after reasoning is dropped, long tool outputs and long pasted texts are cut. */
  tokens: readonly [number, number, number, number];
  /** Per stage, what it cuts of this message (empty: nothing). */
  cuts: readonly [FitCut[], FitCut[], FitCut[]];
  prompt: boolean;
  context: boolean;
}

type FitCut = Omit<BudgetCut, "ordinal">;

/**
 * Whether a block is cut by `stage` in a message of `role`, and to what.
 * `tokens` is the block's count when the caller has it (measureMessage
 * counted it already: a long text is counted once, not once a stage).
 */
function shrunk(
  block: Block,
  role: Message["role"],
  stage: Exclude<Stage, "thinking">,
  settings: FitSettings,
  tokens?: number,
): { block: Block; cut: FitCut } | undefined {
  const { count, longTokens, keep } = settings;
  if (stage === "tool-output" && block.type === "tool_result") {
    const text = blockText(block);
    if (text.length <= 2 * keep + 200) return undefined;
    const whole = tokens ?? count(text);
    if (whole <= longTokens) return undefined;
    const cut = cutMiddle(text, keep);
    return {
      block: { ...block, content: cut },
      cut: { what: stage, tokens: whole, kept: count(cut) },
    };
  }
  if (stage === "long-text" && block.type === "text" && role === "user") {
    if (block.text.length <= 2 * keep + 200) return undefined;
    const whole = tokens ?? count(block.text);
    if (whole <= longTokens) return undefined;
    const cut = cutMiddle(block.text, keep);
    return {
      block: { ...block, text: cut },
      cut: { what: stage, tokens: whole, kept: count(cut) },
    };
  }
  return undefined;
}

function measureMessage(message: Message, settings: FitSettings): MessageFit {
  const { count, imageTokens } = settings;
  let whole = 4; // role and framing
  let thinking = 0;
  let hasThinking = false;
  const cuts: [FitCut[], FitCut[], FitCut[]] = [[], [], []];
  let toolSaved = 0;
  let textSaved = 0;
  for (const block of message.content) {
    const tokens = blockTokens(block, count, imageTokens);
    whole += tokens;
    if (block.type === "thinking") {
      hasThinking = true;
      thinking += tokens;
      continue;
    }
    const tool = shrunk(block, message.role, "tool-output", settings, tokens);
    if (tool !== undefined) {
      cuts[1].push(tool.cut);
      toolSaved += tool.cut.tokens - tool.cut.kept;
      continue;
    }
    const text = shrunk(block, message.role, "long-text", settings, tokens);
    if (text !== undefined) {
      cuts[2].push(text.cut);
      textSaved += text.cut.tokens - text.cut.kept;
    }
  }
  if (hasThinking) cuts[0].push({ what: "thinking", tokens: thinking, kept: 0 });
  const afterThinking = whole - thinking;
  return {
    tokens: [
      whole,
      afterThinking,
      afterThinking - toolSaved,
      afterThinking - toolSaved - textSaved,
    ],
    cuts,
    prompt: isPrompt(message),
    context: message.context !== undefined,
  };
}

const cutKinds = ["thinking", "tool-output", "long-text"] as const;

/**
 * The fits of a conversation's messages, packed: per message its four
 * token counts and two flags, and the cuts it would take as rows of three
 * numbers (the stage, the tokens before, the tokens kept) in the message's
 * order. A session of half a million messages costs a few dozen bytes a
 * message here, not an object with four arrays each.
 */
export class Fits {
  /** Four a message: MessageFit.tokens. */
  readonly #tokens = new NumberColumn(4096);
  /** Bit 1: a prompt; bit 2: context. */
  readonly #flags = new IntColumn(1024);
  /** Where each message's cuts start in the cut rows; one more at the end. */
  readonly #cutStarts = new IntColumn(1024);
  /** The cut rows: stage (1–3), tokens and kept, each. */
  readonly #cutStages = new IntColumn(1024);
  readonly #cutNumbers = new NumberColumn(2048);

  constructor() {
    this.#cutStarts.push(0);
  }

  get length(): number {
    return this.#flags.length;
  }

  push(fit: MessageFit): void {
    for (const tokens of fit.tokens) this.#tokens.push(tokens);
    this.#flags.push((fit.prompt ? 1 : 0) | (fit.context ? 2 : 0));
    for (let stage = 1; stage <= 3; stage += 1)
      for (const cut of fit.cuts[stage - 1] as FitCut[]) {
        this.#cutStages.push(stage);
        this.#cutNumbers.push(cut.tokens);
        this.#cutNumbers.push(cut.kept);
      }
    this.#cutStarts.push(this.#cutStages.length);
  }

  /** The tokens of message `index` after `stage` (0: as it stands). */
  tokens(index: number, stage: number): number {
    return this.#tokens.at(index * 4 + stage);
  }

  prompt(index: number): boolean {
    return (this.#flags.at(index) & 1) !== 0;
  }

  context(index: number): boolean {
    return (this.#flags.at(index) & 2) !== 0;
  }

  /** What `stage` (1–3) cuts of message `index`, in the order measureMessage found them. */
  cuts(index: number, stage: number): FitCut[] {
    const cuts: FitCut[] = [];
    const end = this.#cutStarts.at(index + 1);
    for (let row = this.#cutStarts.at(index); row < end; row += 1)
      if (this.#cutStages.at(row) === stage)
        cuts.push({
          what: cutKinds[stage - 1] as FitCut["what"],
          tokens: this.#cutNumbers.at(row * 2),
          kept: this.#cutNumbers.at(row * 2 + 1),
        });
    return cuts;
  }
}

/**
 * How far fitting goes, from the messages' fits alone: `stage` 0 when the
 * whole fits; 1–3 when it fits once that stage ran over the messages before
 * `stop` (the earlier stages over all); 4 when whole oldest turns go too:
 * the messages from `head` (after the leading context) up to `cutTo`.
 */
export interface FitPlan {
  stage: 0 | 1 | 2 | 3 | 4;
  stop: number;
  head: number;
  cutTo: number;
  limit: number;
}

function planFit(fits: Fits, limit: number): FitPlan {
  const plan = (stage: FitPlan["stage"], stop: number): FitPlan => ({
    stage,
    stop,
    head: 0,
    cutTo: 0,
    limit,
  });
  const length = fits.length;
  let total = 0;
  for (let index = 0; index < length; index += 1) total += fits.tokens(index, 0);
  if (total <= limit) return plan(0, 0);
  // Each stage runs oldest first and stops as soon as the whole fits.
  for (let stage = 1; stage <= 3; stage += 1) {
    for (let index = 0; index < length; index += 1) {
      if (total <= limit) return plan(stage as 1 | 2 | 3, index);
      total += fits.tokens(index, stage) - fits.tokens(index, stage - 1);
    }
  }
  if (total <= limit) return plan(3, length);
  // Whole oldest turns: leading context messages stay, and the last turn.
  let head = 0;
  while (head < length && fits.context(head)) head += 1;
  let cutTo = head;
  let started = false;
  for (let start = head; start < length; start += 1) {
    if (!fits.prompt(start)) continue;
    if (!started) {
      started = true;
      continue;
    }
    if (total <= limit) break;
    for (let index = cutTo; index < start; index += 1) total -= fits.tokens(index, 3);
    cutTo = Math.max(cutTo, start);
  }
  return { stage: 4, stop: length, head, cutTo, limit };
}

/** Whether `plan` runs `stage` (1–3) over the message at `index`. */
function runs(plan: FitPlan, stage: number, index: number): boolean {
  return stage < plan.stage || (stage === plan.stage && index < plan.stop);
}

/** Whether the message at `index` stays (is not in a whole turn left out). */
function kept(plan: FitPlan, index: number): boolean {
  return plan.stage < 4 || index < plan.head || index >= plan.cutTo;
}

/** The message at `index` as `plan` leaves it (the stages that run over it, applied). */
function shrinkMessage(
  message: Message,
  index: number,
  plan: FitPlan,
  settings: FitSettings,
): Message {
  let content = [...message.content];
  if (runs(plan, 1, index)) content = content.filter((block) => block.type !== "thinking");
  for (const [offset, stage] of (["tool-output", "long-text"] as const).entries()) {
    if (!runs(plan, offset + 2, index)) continue;
    content = content.map((block) => shrunk(block, message.role, stage, settings)?.block ?? block);
  }
  return { ...message, content };
}

/**
 * The cuts of a fit, in the order the stages make them (each stage oldest
 * first, then whole turns, then orphan results), made again from the
 * packed fits each time they are read: a fit of a long session cuts
 * hundreds of thousands of messages, and their BudgetCut objects held at
 * once were the largest thing the fit allocated.
 */
export class BudgetCuts implements Iterable<BudgetCut> {
  readonly #fits: Fits;
  readonly #plan: FitPlan;
  readonly #orphans: readonly BudgetCut[];
  readonly length: number;

  constructor(fits: Fits, plan: FitPlan, orphans: readonly BudgetCut[]) {
    this.#fits = fits;
    this.#plan = plan;
    this.#orphans = orphans;
    let length = orphans.length + (plan.stage === 4 ? plan.cutTo - plan.head : 0);
    for (let stage = 1; stage <= 3; stage += 1)
      for (let at = 0; at < fits.length && runs(plan, stage, at); at += 1)
        length += fits.cuts(at, stage).length;
    this.length = length;
  }

  *[Symbol.iterator](): Iterator<BudgetCut> {
    const fits = this.#fits;
    const plan = this.#plan;
    for (let stage = 1; stage <= 3; stage += 1)
      for (let at = 0; at < fits.length && runs(plan, stage, at); at += 1)
        for (const cut of fits.cuts(at, stage))
          yield { ordinal: at + 1, what: cut.what, tokens: cut.tokens, kept: cut.kept };
    if (plan.stage === 4)
      for (let at = plan.head; at < plan.cutTo; at += 1)
        yield { ordinal: at + 1, what: "turn", tokens: fits.tokens(at, 3), kept: 0 };
    yield* this.#orphans;
  }
}

/**
 * A fit fed one message at a time, in two passes over the conversation from
 * its start: `measure` each message, then `keep` each again (the first
 * `keep` plans the fit), then `result()`. Only what stays is held, with each
 * message's measure (a few numbers, and the cuts it would take, packed in
 * Fits), so a session too long to hold whole fits in memory that grows
 * with its message count (and the ids of the calls left out, packed in
 * StringIds), not its size. The result is fitToBudget's for the same
 * messages.
 */
export class BudgetFit {
  readonly #settings: FitSettings;
  readonly #limit: number;
  readonly #fits = new Fits();
  #plan: FitPlan | undefined;
  #index = 0;
  readonly #entries: { ordinal: number; message: Message; tokens: number }[] = [];
  /** The calls of the messages that stay (few: the budget's), and of those left out (many). */
  readonly #keptCalls = new Set<string>();
  readonly #leftCalls = new StringIds();
  readonly #calibrate: boolean;
  /** The last prompt size a measured message recorded, and its index. */
  #recorded: { tokens: number; at: number } | undefined;
  #calibration: BudgetCalibration | undefined;

  constructor(budget: number, count: TokenCounter, options: BudgetOptions = {}) {
    this.#settings = fitSettings(count, options);
    this.#limit = Math.max(0, budget - (options.reserve ?? 0));
    this.#calibrate = options.calibrate === true;
  }

  /** Pass one: the next message, measured and let go. */
  measure(message: Message): void {
    if (this.#plan !== undefined) throw new Error("BudgetFit: measure after keep");
    if (this.#calibrate) {
      const tokens = recordedPromptTokens(message);
      if (tokens > 0) this.#recorded = { tokens, at: this.#fits.length };
    }
    this.#fits.push(measureMessage(message, this.#settings));
  }

  /** The plan, made once: against the budget, calibrated if asked. */
  #planned(): FitPlan {
    if (this.#plan === undefined) {
      this.#calibration = calibration(this.#fits, this.#limit, this.#recorded);
      this.#plan = planFit(this.#fits, this.#calibration?.limit ?? this.#limit);
    }
    return this.#plan;
  }

  /** Pass two: the next message again, kept (shrunk) if it stays. */
  keep(message: Message): void {
    const plan = this.#planned();
    const index = this.#index;
    if (index >= this.#fits.length) throw changed();
    this.#index += 1;
    const stays = kept(plan, index);
    for (const block of message.content)
      if (block.type === "tool_use") {
        if (stays) this.#keptCalls.add(block.id);
        else this.#leftCalls.id(block.id);
      }
    if (!stays) return;
    const stage = [1, 2, 3].filter((s) => runs(plan, s, index)).length;
    this.#entries.push({
      ordinal: index + 1,
      message: shrinkMessage(message, index, plan, this.#settings),
      tokens: this.#fits.tokens(index, stage),
    });
  }

  /** What stays, what was cut, and the token counts before and after. */
  result(): Omit<BudgetResult, "transcript"> & { messages: Message[] } {
    const { cuts, ...rest } = this.packedResult();
    return { ...rest, cuts: [...cuts] };
  }

  /** result(), with the cuts made as they are read (BudgetCuts), not held. */
  packedResult(): Omit<BudgetResult, "transcript" | "cuts"> & {
    messages: Message[];
    cuts: BudgetCuts;
  } {
    const fits = this.#fits;
    const plan = this.#planned();
    if (this.#index !== fits.length) throw changed();
    const { count, imageTokens } = this.#settings;
    let before = 0;
    for (let at = 0; at < fits.length; at += 1) before += fits.tokens(at, 0);
    const orphanCuts: BudgetCut[] = [];
    let entries = this.#entries;
    let total = entries.reduce((sum, entry) => sum + entry.tokens, 0);
    if (plan.stage === 4) {
      // Results whose call went with a dropped turn would be orphans: they go too.
      const left = (id: string) => this.#leftCalls.find(id) !== -1 && !this.#keptCalls.has(id);
      const remaining: typeof entries = [];
      for (const entry of entries) {
        const orphans = entry.message.content.filter(
          (block) => block.type === "tool_result" && left(block.toolUseId),
        );
        if (orphans.length === 0) {
          remaining.push(entry);
          continue;
        }
        const tokens = orphans.reduce(
          (sum, block) => sum + blockTokens(block, count, imageTokens),
          0,
        );
        const content = entry.message.content.filter((block) => !orphans.includes(block));
        orphanCuts.push({ ordinal: entry.ordinal, what: "orphan-result", tokens, kept: 0 });
        total -= entry.tokens;
        if (content.length === 0) continue;
        const message = { ...entry.message, content };
        const next = messageTokens(message, count, imageTokens);
        total += next;
        remaining.push({ ...entry, message, tokens: next });
      }
      entries = remaining;
    }
    return {
      messages: entries.map((entry) => entry.message),
      cuts: new BudgetCuts(fits, plan, orphanCuts),
      before,
      after: total,
      fits: total <= plan.limit,
      ...(this.#calibration === undefined ? {} : { calibration: this.#calibration }),
    };
  }
}

function changed(): TxcriptError {
  return new TxcriptError("INVALID_DOCUMENT", "the conversation read differently the second time", {
    hint: "the session changed while it was being fitted; try again",
  });
}

/** Fit a conversation read twice from its start by `messages` (see BudgetFit). */
export function fitMessages(
  messages: () => Iterable<Message>,
  budget: number,
  count: TokenCounter,
  options: BudgetOptions = {},
): Omit<BudgetResult, "transcript"> & { messages: Message[] } {
  const fit = new BudgetFit(budget, count, options);
  for (const message of messages()) fit.measure(message);
  for (const message of messages()) fit.keep(message);
  return fit.result();
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
  const { messages, ...result } = fitMessages(() => transcript.messages, budget, count, options);
  return { transcript: { ...transcript, messages }, ...result };
}

/** A rough, tokenizer-free count: about four characters a token. */
export const estimateTokens: TokenCounter = (text) => Math.ceil(text.length / 4);
