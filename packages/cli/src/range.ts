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
  const count = transcript.messages.length;
  const from = range.from ?? 1;
  const to = range.to ?? count;
  const valid = count === 0 ? "the session has no messages" : `valid ordinals are 1-${count}`;
  if (from < 1 || to > count || from > to) {
    throw new TxcriptError("USAGE", `range ${range.text} is outside the session`, { hint: valid });
  }
  return { from, to };
}

/** Ordinal (1-based) of the message holding each tool_use id, and each tool_result's. */
function pairs(transcript: Transcript): { use: number; result: number }[] {
  const uses = new Map<string, number>();
  const found: { use: number; result: number }[] = [];
  transcript.messages.forEach((message, index) => {
    for (const block of message.content) {
      if (block.type === "tool_use") uses.set(block.id, index + 1);
    }
  });
  transcript.messages.forEach((message, index) => {
    for (const block of message.content) {
      if (block.type !== "tool_result") continue;
      const use = uses.get(block.toolUseId);
      if (use !== undefined) found.push({ use, result: index + 1 });
    }
  });
  return found;
}

/** The smallest range containing [from, to] that cuts no call from its result. */
export function nearestValidRange(
  transcript: Transcript,
  from: number,
  to: number,
): { from: number; to: number } {
  const all = pairs(transcript);
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
  const { from, to } = resolveRange(range, transcript);
  const nearest = nearestValidRange(transcript, from, to);
  if (nearest.from !== from || nearest.to !== to) {
    throw new TxcriptError("REFUSED", `range ${range.text} would cut a tool call from its result`, {
      hint: `the nearest valid range is ${formatRange(nearest)}`,
    });
  }
  return { meta: transcript.meta, messages: transcript.messages.slice(from - 1, to) };
}
