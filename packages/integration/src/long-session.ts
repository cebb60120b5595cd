// A long, compacted session for the issue-18 scenario, generated from a
// seed (the same seed gives the same session): 100 compactions, each alone
// in a user message, between 101 stretches of work. A turn is a prompt, an
// assistant message with reasoning, a text and a Bash call, the call's long
// output, and the assistant's answer; every text carries a unique marker
// (`«m<ordinal>»`) so a test can tell which messages were kept whole.
import type { Message, Transcript } from "@txcript/core";

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const words =
  "the a of to in is for on with that this it as be by from at config parse error file line token session write read build test module import export const async await promise array object string number value return function handler request response cache index store path stream buffer encode decode retry timeout queue worker schema field record".split(
    " ",
  );

export interface LongSessionOptions {
  seed?: number;
  compactions?: number;
  /** Turns between two compactions. */
  turnsPerStretch?: number;
  /** Turns after the last compaction. */
  lastTurns?: number;
  /** Characters of each tool output. */
  outputChars?: number;
  cwd: string;
}

export function longSession(options: LongSessionOptions): Transcript {
  const next = random(options.seed ?? 18);
  const pick = () => words[Math.floor(next() * words.length)] as string;
  const prose = (length: number) => {
    let text = "";
    while (text.length < length) text += `${pick()}${next() < 0.08 ? ".\n" : " "}`;
    return text.trimEnd();
  };
  const hex = (length: number) => {
    let text = "";
    while (text.length < length) text += Math.floor(next() * 16).toString(16);
    return text;
  };
  const output = (length: number, marker: string) => {
    const lines = [marker];
    let size = marker.length;
    while (size < length) {
      const line = `src/${pick()}/${pick()}-${hex(6)}.ts:${Math.floor(next() * 900) + 1}: ${prose(60 + Math.floor(next() * 60))} ${hex(16)}`;
      lines.push(line);
      size += line.length + 1;
    }
    return lines.join("\n");
  };
  const compactions = options.compactions ?? 100;
  const turnsPerStretch = options.turnsPerStretch ?? 8;
  const lastTurns = options.lastTurns ?? 60;
  const outputChars = options.outputChars ?? 20_500;
  const start = Date.parse("2026-01-05T09:00:00.000Z");
  const messages: Message[] = [];
  const at = () => new Date(start + messages.length * 7_000).toISOString();
  const mark = () => `«m${messages.length + 1}»`;
  for (let stretch = 0; stretch <= compactions; stretch += 1) {
    if (stretch > 0)
      messages.push({
        role: "user",
        timestamp: at(),
        content: [
          {
            type: "compaction",
            summary: `${mark()} Summary ${stretch} of the work so far: ${prose(2_400)}`,
            trigger: "auto",
            preTokens: 150_000 + Math.floor(next() * 40_000),
          },
        ],
      });
    const turns = stretch === compactions ? lastTurns : turnsPerStretch;
    for (let turn = 0; turn < turns; turn += 1) {
      const id = `call_${stretch}_${turn}_${hex(8)}`;
      messages.push({
        role: "user",
        timestamp: at(),
        content: [{ type: "text", text: `${mark()} Task ${stretch}.${turn}: ${prose(240)}` }],
      });
      messages.push({
        role: "assistant",
        timestamp: at(),
        model: "claude-sonnet-4-5",
        stopReason: "tool_use",
        content: [
          { type: "thinking", text: `${mark()} ${prose(1_600)}` },
          { type: "text", text: `${mark()} ${prose(200)}` },
          {
            type: "tool_use",
            id,
            tool: { name: "Bash", input: { command: `grep -rn ${pick()}_${hex(6)} src` } },
          },
        ],
      });
      messages.push({
        role: "user",
        timestamp: at(),
        content: [
          {
            type: "tool_result",
            toolUseId: id,
            content: output(outputChars, mark()),
            isError: false,
          },
        ],
      });
      messages.push({
        role: "assistant",
        timestamp: at(),
        model: "claude-sonnet-4-5",
        stopReason: "end_turn",
        content: [{ type: "text", text: `${mark()} ${prose(400)}` }],
      });
    }
  }
  return {
    meta: {
      id: "long-session-100-compactions",
      timestamp: new Date(start).toISOString(),
      cwd: options.cwd,
      title: "A long session with 100 compactions",
    },
    messages,
  };
}
