// The context budget of `continue`: how many tokens the target's model can
// take, how they are counted, and the archive of whatever had to be cut to
// fit, so the resumed agent can read it. The table is the one place the
// context windows live; docs/cli.md quotes its provenance.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  type BudgetCalibration,
  type BudgetCut,
  BudgetFit,
  commonCodec,
  estimateTokens,
  fitToBudget,
  type Message,
  makeDirectoryInside,
  type TokenCounter,
  type Transcript,
  TxcriptError,
  writeFileAtomic,
} from "@txcript/core";

export interface ContextWindow {
  /** The model family a harness runs by default. */
  family: string;
  /** Its context window, in tokens. */
  window: number;
  /** How its tokens are counted here. */
  tokenizer: "o200k_base" | "estimate";
  /** Where the window comes from. */
  source: string;
  /**
   * The default budget when three quarters of the window is too much: the
   * harness compacts the history itself below that (then its model would get
   * its own summary, not the copy).
   */
  budget?: { tokens: number; source: string };
}

/**
 * Context windows by target harness. The default budget is three quarters of
 * the window: the rest is left for the harness's own system prompt and tool
 * definitions, and for the model's answer.
 */
export const contextWindows: Readonly<Record<string, ContextWindow>> = {
  claude_code: {
    family: "Claude (Anthropic)",
    window: 200_000,
    tokenizer: "estimate",
    source: "Anthropic's model overview: a 200K-token context window for the Claude 4 models",
  },
  codex: {
    family: "GPT-5 codex models (OpenAI)",
    window: 272_000,
    tokenizer: "o200k_base",
    source:
      "OpenAI's GPT-5 model page: 400K tokens of context of which up to 128K are output, leaving 272K of input",
  },
  pi: {
    family: "whatever pi is configured with",
    window: 200_000,
    tokenizer: "estimate",
    source:
      "pi runs many providers; the smallest common window of its usual models (Claude's 200K)",
  },
  opencode: {
    family: "whatever OpenCode is configured with",
    window: 200_000,
    tokenizer: "estimate",
    source:
      "OpenCode runs many providers; the smallest common window of its usual models (Claude's 200K)",
  },
  copilot_cli: {
    family: "whatever Copilot CLI is configured with",
    window: 128_000,
    tokenizer: "o200k_base",
    source:
      "Copilot CLI 1.0.102's prompt budget for a model it has no catalog entry for (maxPromptTokens 128000 in its usage records)",
    budget: {
      tokens: 60_000,
      source:
        "Copilot CLI 1.0.102 compacts a resumed history before its first request well below its 128K prompt budget (its own system prompt and tools count too): a real 977-message session copied at 70,000 tokens (o200k_base) was compacted on resume, at 60,000 it was sent whole (the continue matrix, docs/compatibility.md)",
    },
  },
  gemini_cli: {
    family: "Gemini 2.5 (Google)",
    window: 1_048_576,
    tokenizer: "estimate",
    source: "Google's Gemini 2.5 Pro model card: 1,048,576 input tokens",
  },
};

const fallback: ContextWindow = {
  family: "an unknown model",
  window: 200_000,
  tokenizer: "estimate",
  source: "no table entry: the smallest usual window (200K)",
};

export function contextWindow(harness: string): ContextWindow {
  return contextWindows[harness] ?? fallback;
}

export function defaultBudget(harness: string): number {
  const window = contextWindow(harness);
  return window.budget?.tokens ?? Math.floor(window.window * 0.75);
}

/** The counter for a target: a real tokenizer where one exists for its family, else an estimate. */
export async function tokenCounter(
  harness: string,
): Promise<{ count: TokenCounter; name: string }> {
  if (contextWindow(harness).tokenizer !== "o200k_base")
    return { count: estimateTokens, name: "an estimate of 4 characters a token" };
  const encoding = await import("gpt-tokenizer/encoding/o200k_base");
  const countSlice = o200kSliceCounter(encoding.default, encoding.countTokens);
  // The last text's first slice and its count: a long text cut to fit
  // (core's budget.ts) is counted whole, then its cut at once, whose first
  // slice is the same head (2,000 characters kept at each end, by default).
  let lastHead = "";
  let lastHeadCount = 0;
  // In slices: the tokenizer's merge step grows faster than linearly on long runs.
  const count: TokenCounter = (text) => {
    let total = 0;
    for (let start = 0; start < text.length; start += 2000) {
      const slice = text.slice(start, start + 2000);
      if (start > 0) total += countSlice(slice);
      else if (slice === lastHead) total += lastHeadCount;
      else {
        lastHeadCount = countSlice(slice);
        lastHead = slice;
        total += lastHeadCount;
      }
    }
    return total;
  };
  return { count, name: "OpenAI's o200k_base encoding (gpt-tokenizer)" };
}

/** What o200kSliceCounter reads of gpt-tokenizer's encoder (4.0's BytePairEncodingCore). */
interface BytePairCore {
  tokenSplitRegex: RegExp;
  bytePairStringRankEncoder: Map<string, number>;
  getBpeRankFromBytes(bytes: Uint8Array): number | undefined;
}

function bytePairCore(encoding: unknown): BytePairCore | undefined {
  const core = (encoding as { bytePairEncodingCoreProcessor?: Partial<BytePairCore> })
    ?.bytePairEncodingCoreProcessor;
  if (
    core?.tokenSplitRegex instanceof RegExp &&
    core.bytePairStringRankEncoder instanceof Map &&
    typeof core.getBpeRankFromBytes === "function"
  )
    return core as BytePairCore;
  return undefined;
}

/**
 * gpt-tokenizer's countTokens(text, { disallowedSpecial: new Set() }), the
 * same number by the same steps, without what makes it slow on a session of
 * gigabytes: its merge cache (a 100,000-entry LRU Map, whose eviction of the
 * oldest key walks the Map's deleted slots: half the time of a count went
 * there) and a TextEncoder/TextDecoder round trip for every pair of bytes it
 * ranks. Its steps, for text where no special token is allowed (none is
 * matched then: the text is all plain): split by the encoding's pattern; a
 * piece in the vocabulary is one token; any other is merged byte pair by
 * byte pair, the lowest-ranked pair first (the leftmost of equals), until
 * no pair is in the vocabulary, and is as many tokens as parts remain. Here
 * an ASCII piece's pairs are ranked by their text (its bytes are its
 * characters), any other's by its UTF-8 bytes through the encoder's own
 * lookup. The encoder's internals are the pinned 4.0's; without them this
 * is countTokens itself. context-budget.test.ts checks it against
 * countTokens over generated and unicode texts.
 */
export function o200kSliceCounter(
  encoding: unknown,
  countTokens: (text: string, options: { disallowedSpecial: Set<string> }) => number,
): TokenCounter {
  const core = bytePairCore(encoding);
  if (core === undefined) {
    const options = { disallowedSpecial: new Set<string>() };
    return (text) => countTokens(text, options);
  }
  const ranks = core.bytePairStringRankEncoder;
  const split = new RegExp(core.tokenSplitRegex.source, core.tokenSplitRegex.flags);
  const encoder = new TextEncoder();
  let starts = new Int32Array(256);
  let pairRanks = new Float64Array(256);
  // The rank of the bytes [from, to) of the piece: by text for ASCII, else by bytes.
  let piece = "";
  let bytes: Uint8Array | undefined;
  const rank = (from: number, to: number): number =>
    (bytes === undefined
      ? ranks.get(piece.slice(from, to))
      : core.getBpeRankFromBytes(bytes.subarray(from, to))) ?? Number.POSITIVE_INFINITY;
  // BytePairEncodingCore.bytePairMerge's loop, counting the parts it leaves.
  const merged = (text: string): number => {
    piece = text;
    bytes = undefined;
    for (let index = 0; index < text.length; index += 1)
      if (text.charCodeAt(index) > 0x7f) {
        bytes = encoder.encode(text);
        break;
      }
    const length = bytes === undefined ? text.length : bytes.length;
    if (length + 1 > starts.length) {
      starts = new Int32Array(2 * (length + 1));
      pairRanks = new Float64Array(2 * (length + 1));
    }
    // Part i is [starts[i], starts[i + 1]); pairRanks[i] ranks parts i and i + 1 as one.
    let parts = length;
    for (let index = 0; index <= length; index += 1) starts[index] = index;
    for (let index = 0; index < length - 1; index += 1) pairRanks[index] = rank(index, index + 2);
    while (parts > 1) {
      let lowest = Number.POSITIVE_INFINITY;
      let at = -1;
      for (let index = 0; index < parts - 1; index += 1)
        if ((pairRanks[index] as number) < lowest) {
          lowest = pairRanks[index] as number;
          at = index;
        }
      if (at === -1) break;
      starts.copyWithin(at + 1, at + 2, parts + 1);
      pairRanks.copyWithin(at, at + 1, parts - 1);
      parts -= 1;
      pairRanks[at] =
        at + 1 < parts
          ? rank(starts[at] as number, starts[at + 2] as number)
          : Number.POSITIVE_INFINITY;
      if (at > 0) pairRanks[at - 1] = rank(starts[at - 1] as number, starts[at + 1] as number);
    }
    piece = "";
    bytes = undefined;
    return parts;
  };
  return (text) => {
    let total = 0;
    split.lastIndex = 0;
    for (let match = split.exec(text); match !== null; match = split.exec(text)) {
      const found = match[0];
      // (The pattern matches no empty piece; were one matched, it is no token, and the scan moves on.)
      if (found === "") split.lastIndex += 1;
      else total += ranks.has(found) ? 1 : merged(found);
    }
    return total;
  };
}

export interface Archive {
  directory: string;
  note: Message;
  /** The directory was made by this write (it did not exist before): a failed continue removes it. */
  created: boolean;
}

/** Whether `directory` exists (an archive from an earlier continue of the same session). */
export async function exists(directory: string): Promise<boolean> {
  return fs.stat(directory).then(
    () => true,
    () => false,
  );
}

const whatWords: Record<BudgetCut["what"], string> = {
  thinking: "reasoning removed",
  "tool-output": "tool output cut to its head and tail",
  "long-text": "long message cut to its head and tail",
  turn: "whole turn left out",
  "orphan-result": "result of a call that was left out",
};

/**
 * Write everything of `full` beside the project, under `.txcript/<id>/`: the
 * whole conversation as a Common document and a readable index of what the
 * continued session leaves out. Returns the note the continued session
 * carries about it.
 */
/**
 * Where the archive of a session goes: `<cwd>/.txcript/<id, made safe>`. The
 * name is one plain path component: no separator, and no leading dot (an id
 * of `..` or `.` would otherwise name `.txcript`'s parent or itself).
 */
export function archiveDirectory(cwd: string, id: string): string {
  const safe =
    id
      .replace(/[^\w.-]+/g, "_")
      .replace(/^\./, "_")
      .slice(0, 120) || "session";
  return path.join(cwd, ".txcript", safe);
}

/**
 * Make the archive's directory under `cwd`, never through a symbolic link
 * (a `.txcript` link, or one in its place, is refused), with a `.gitignore`
 * of `*` in `.txcript/` so `git add -A` in the project leaves the archive
 * (the whole session, unredacted unless --redact) out. Returns whether the
 * session's directory was made by this call.
 */
export async function makeArchiveDirectory(cwd: string, id: string): Promise<boolean> {
  const directory = archiveDirectory(cwd, id);
  const created = await makeDirectoryInside(cwd, directory);
  const ignore = path.join(cwd, ".txcript", ".gitignore");
  await writeFileAtomic(
    ignore,
    "# written by txcript: archives of continued sessions stay out of git\n*\n",
    {
      root: path.join(cwd, ".txcript"),
    },
  ).catch((error: unknown) => {
    // One already there (ours, or the user's own) is kept as it is.
    if (!(TxcriptError.isInstance(error) && error.code === "CONFLICT")) throw error;
  });
  return created;
}

/**
 * What the archive says of the whole session, when it is not at hand as one
 * Transcript (continue-stream.ts wrote its transcript.common.json already).
 */
export interface ArchivedSession {
  meta: Transcript["meta"];
  count: number;
  firstTimestamp: string | undefined;
}

export async function writeArchive(
  cwd: string,
  whole: Transcript | ArchivedSession,
  leftOut: { before: number; cuts: Iterable<BudgetCut>; firstKept: number },
  summary: string,
  options: { created?: boolean } = {},
): Promise<Archive> {
  const full =
    "messages" in whole
      ? {
          meta: whole.meta,
          count: whole.messages.length,
          firstTimestamp: whole.messages[0]?.timestamp,
        }
      : whole;
  const directory = archiveDirectory(cwd, full.meta.id);
  const made = await makeArchiveDirectory(cwd, full.meta.id);
  const created = options.created ?? made;
  // The archive holds the whole session: readable by its owner only.
  if ("messages" in whole)
    await writeFileAtomic(
      path.join(directory, "transcript.common.json"),
      commonCodec.serialize(commonCodec.fromCommon(whole)),
      { overwrite: true, root: directory, mode: 0o600 },
    );
  // Line by line: a fit of a long session cuts hundreds of thousands of
  // messages, and their lines held at once (as template strings, each a
  // tree of pieces) took more memory than the rest of the fit.
  const lines = function* (): Generator<string> {
    yield `# What the continued session leaves out\n\nSession ${full.meta.id}${full.meta.title ? ` (${full.meta.title})` : ""}: ${full.count} messages, in full in transcript.common.json beside this file (txcript view transcript.common.json#N shows message N).\n\n${summary}\n\n`;
    if (leftOut.firstKept > 1)
      yield `- messages #1-${leftOut.firstKept - 1}: before the last compaction\n`;
    for (const cut of leftOut.cuts)
      yield `- message #${cut.ordinal + leftOut.firstKept - 1}: ${whatWords[cut.what]} (${cut.tokens} tokens${cut.kept > 0 ? `, ${cut.kept} kept` : ""})\n`;
  };
  await writeFileAtomic(path.join(directory, "index.md"), lines(), {
    overwrite: true,
    root: directory,
    mode: 0o600,
  });
  const relative = path.relative(cwd, directory) || directory;
  return {
    directory,
    created,
    note: {
      role: "user",
      timestamp: full.firstTimestamp ?? full.meta.timestamp,
      content: [
        {
          type: "text",
          text: `[txcript] Parts of this conversation were left out when it was moved here (${summary}). Everything is kept in ${relative}/: transcript.common.json holds the whole conversation, index.md lists what was left out.`,
        },
      ],
    },
  };
}

export interface Fitted {
  transcript: Transcript;
  cuts: BudgetCut[];
  before: number;
  after: number;
  budget: number;
  counter: string;
  /** An estimate's budget, shrunk by the session's recorded prompt size (core's BudgetOptions.calibrate). */
  calibration?: BudgetCalibration;
  /** Messages of a cut copy whose recorded usage was left out (it counted what was cut). */
  usageLeftOut: number;
}

/** The budget and counter for a target: the given budget, or its default. */
async function targetBudget(
  target: string,
  budget: number | undefined,
): Promise<{ limit: number; count: TokenCounter; name: string; calibrate: boolean }> {
  const limit = budget ?? defaultBudget(target);
  const { count, name } = await tokenCounter(target);
  // An estimate is calibrated by what the session's model counted; a real
  // tokenizer of the target's family is not (the source's model counted
  // with another).
  return { limit, count, name, calibrate: contextWindow(target).tokenizer === "estimate" };
}

function checked<T extends { fits: boolean; after: number; calibration?: BudgetCalibration }>(
  result: T,
  limit: number,
  name: string,
): T & { budget: number; counter: string } {
  if (!result.fits)
    throw new TxcriptError(
      "TOO_LARGE",
      `the session does not fit a budget of ${limit} tokens even with only its last turn (${result.after} tokens by ${name}${result.calibration === undefined ? "" : `, against ${result.calibration.limit} once calibrated by the usage the session recorded`})`,
      { hint: "pass a larger --budget, or continue a range (#N-M) of it" },
    );
  return { ...result, budget: limit, counter: name };
}

/**
 * The messages of a copy, without their recorded usage when anything was
 * cut: a message's usage counts the prompt its model was sent, which held
 * what the copy no longer does, and a target that takes its context size
 * from the last record (Qwen Code, on resume) would count the cut session.
 * The archive keeps the usage.
 */
function withoutStaleUsage(
  messages: Message[],
  cut: boolean,
): { messages: Message[]; usageLeftOut: number } {
  if (!cut) return { messages, usageLeftOut: 0 };
  let usageLeftOut = 0;
  const kept = messages.map((message) => {
    if (message.usage === undefined) return message;
    usageLeftOut += 1;
    const { usage: _usage, ...rest } = message;
    return rest;
  });
  return { messages: kept, usageLeftOut };
}

/** What continue says of a fit that cut something (planCopy and the streaming copy alike). */
export function fitNotes(
  fitted: Omit<Fitted, "transcript" | "cuts"> & { cuts: { length: number } },
): string[] {
  if (fitted.cuts.length === 0) return [];
  const { calibration } = fitted;
  const calibrated =
    calibration === undefined
      ? ""
      : `; the session recorded ${calibration.recorded} prompt tokens at message ${calibration.ordinal}, ${calibration.factor.toFixed(2)}× the count, so ${calibration.limit} counted tokens`;
  const notes = [
    `fitted into a budget of ${fitted.budget} tokens (${fitted.counter}${calibrated}): ${fitted.before} → ${fitted.after} tokens, ${fitted.cuts.length} cut${fitted.cuts.length === 1 ? "" : "s"}`,
  ];
  if (fitted.usageLeftOut > 0)
    notes.push(
      `the recorded usage of ${fitted.usageLeftOut} message${fitted.usageLeftOut === 1 ? "" : "s"} left out of the copy: it counted what was cut (the archive keeps it)`,
    );
  return notes;
}

// Room for the archive note.
const reserve = 120;

/** Fit a transcript into a target's budget (given, or its default). */
export async function fitForTarget(
  transcript: Transcript,
  target: string,
  budget: number | undefined,
): Promise<Fitted> {
  const { limit, count, name, calibrate } = await targetBudget(target, budget);
  const result = checked(
    fitToBudget(transcript, limit, count, { reserve, calibrate }),
    limit,
    name,
  );
  const { messages, usageLeftOut } = withoutStaleUsage(
    result.transcript.messages,
    result.cuts.length > 0,
  );
  return { ...result, transcript: { ...result.transcript, messages }, usageLeftOut };
}

/**
 * The same fit for messages fed in two passes (continue-stream.ts): measure
 * each, keep each, then `finish()` (which refuses as fitForTarget does).
 */
export async function streamFitForTarget(
  target: string,
  budget: number | undefined,
): Promise<{
  fit: BudgetFit;
  /** The cuts are core's BudgetCuts: made as they are read (index.md), not held. */
  finish(): Omit<Fitted, "transcript" | "cuts"> & {
    messages: Message[];
    cuts: ReturnType<BudgetFit["packedResult"]>["cuts"];
  };
}> {
  const { limit, count, name, calibrate } = await targetBudget(target, budget);
  const fit = new BudgetFit(limit, count, { reserve, calibrate });
  return {
    fit,
    finish: () => {
      const result = checked(fit.packedResult(), limit, name);
      return { ...result, ...withoutStaleUsage(result.messages, result.cuts.length > 0) };
    },
  };
}
