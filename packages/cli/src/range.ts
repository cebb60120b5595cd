// Message ranges by the ordinals `txcript view` prints (`#7`, `#5-12`,
// `#5-`, `#-10`), and the rule that a copy (export, continue) never cuts a
// tool call from its result: such a range is refused with the nearest
// valid range that contains it.
import { type Transcript, TxcriptError } from "@txcript/core";

export interface Range {
  from?: number;
  to?: number;
  /** As the user wrote it, for messages. */
  text: string;
}

const rangePattern = /^(?:(\d+)|(\d+)-(\d*)|-(\d+))$/;

/** Split `ref#range` when the suffix is a range; otherwise the ref is whole. */
export function splitRange(reference: string): { ref: string; range?: Range } {
  const hash = reference.lastIndexOf("#");
  if (hash < 0) return { ref: reference };
  const text = reference.slice(hash + 1);
  const match = rangePattern.exec(text);
  if (!match) return { ref: reference };
  const [, single, start, end, upTo] = match;
  const number = (value: string | undefined) =>
    value === undefined || value === "" ? undefined : Number(value);
  const range: Range = { text: `#${text}` };
  if (single !== undefined) {
    range.from = Number(single);
    range.to = Number(single);
  } else if (start !== undefined) {
    range.from = Number(start);
    const last = number(end);
    if (last !== undefined) range.to = last;
  } else {
    range.to = Number(upTo);
  }
  return { ref: reference.slice(0, hash), range };
}

/** Check a range against the transcript; returns 1-based inclusive bounds. */
export function resolveRange(range: Range, transcript: Transcript): { from: number; to: number } {
  return resolveRangeOf(range, transcript.messages.length);
}

/** Check a range against a session of `count` messages; returns 1-based inclusive bounds. */
export function resolveRangeOf(range: Range, count: number): { from: number; to: number } {
  const from = range.from ?? 1;
  const to = range.to ?? count;
  const valid = count === 0 ? "the session has no messages" : `valid ordinals are 1-${count}`;
  if (from < 1 || to > count || from > to) {
    throw new TxcriptError("USAGE", `range ${range.text} is outside the session`, { hint: valid });
  }
  return { from, to };
}

/** A call and its result, by the ordinals (1-based) of the messages holding them. */
export interface ToolPair {
  use: number;
  result: number;
}

/**
 * The tool pairs of a session fed one message at a time (so a streamed
 * session needs only its call ids, not its messages): a result pairs with
 * the last message holding its call's id, wherever that is.
 */
export class ToolPairs {
  private readonly uses = new Map<string, number>();
  private readonly results: [string, number][] = [];
  /** Messages fed so far. */
  count = 0;

  add(message: Transcript["messages"][number]): void {
    this.count += 1;
    for (const block of message.content) {
      if (block.type === "tool_use") this.uses.set(block.id, this.count);
      else if (block.type === "tool_result") this.results.push([block.toolUseId, this.count]);
    }
  }

  pairs(): ToolPair[] {
    const found: ToolPair[] = [];
    for (const [id, result] of this.results) {
      const use = this.uses.get(id);
      if (use !== undefined) found.push({ use, result });
    }
    return found;
  }
}

function pairs(transcript: Transcript): ToolPair[] {
  const tracker = new ToolPairs();
  for (const message of transcript.messages) tracker.add(message);
  return tracker.pairs();
}

/** The smallest range containing [from, to] that cuts no call from its result. */
export function nearestValidRange(
  transcript: Transcript,
  from: number,
  to: number,
): { from: number; to: number } {
  return nearestValidRangeOf(pairs(transcript), from, to);
}

/** nearestValidRange over a session's tool pairs. */
export function nearestValidRangeOf(
  all: readonly ToolPair[],
  from: number,
  to: number,
): { from: number; to: number } {
  let lower = from;
  let upper = to;
  for (let changed = true; changed; ) {
    changed = false;
    for (const { use, result } of all) {
      const inside = (ordinal: number) => ordinal >= lower && ordinal <= upper;
      if (inside(use) !== inside(result)) {
        const next = { lower: Math.min(lower, use), upper: Math.max(upper, result) };
        if (next.lower !== lower || next.upper !== upper) changed = true;
        lower = next.lower;
        upper = next.upper;
      }
    }
  }
  return { from: lower, to: upper };
}

function formatRange(range: { from: number; to: number }): string {
  return range.from === range.to ? `#${range.from}` : `#${range.from}-${range.to}`;
}

/** The messages of a range for a copy; refuses a range that cuts a call from its result. */
export function sliceForCopy(transcript: Transcript, range: Range | undefined): Transcript {
  if (range === undefined) return transcript;
  const { from, to } = copyBounds(range, transcript.messages.length, pairs(transcript));
  return { meta: transcript.meta, messages: transcript.messages.slice(from - 1, to) };
}

/** A copy's bounds for a range of a session of `count` messages; refuses one that cuts a call from its result. */
export function copyBounds(
  range: Range,
  count: number,
  all: readonly ToolPair[],
): { from: number; to: number } {
  const { from, to } = resolveRangeOf(range, count);
  const nearest = nearestValidRangeOf(all, from, to);
  if (nearest.from !== from || nearest.to !== to) {
    throw new TxcriptError("REFUSED", `range ${range.text} would cut a tool call from its result`, {
      hint: `the nearest valid range is ${formatRange(nearest)}`,
    });
  }
  return { from, to };
}
