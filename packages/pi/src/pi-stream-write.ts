// A pi session written from a stream of parts (core's stream.ts), with the
// text and warnings of serialize(commonToPi(t)): the same piLinesOf, given
// the messages as they come. The lines near the top need a look ahead
// (the thinking level says whether any message thinks; the subagent
// warning counts them), a result names the tool of a call that may come
// later, and a compaction keeps from an earlier entry only when its
// history equals the messages before it; so one silent replay plans first
// (PiPlanner: those flags, the call names, where each such compaction
// compares from), and the messages it compares are held until it is
// written. Memory grows with the calls' names, the entry ids (kept unique)
// and what compactions copy, not with the messages. A replay that differs
// from the stream is refused.
import {
  type CodecOptions,
  type Message,
  restMessages,
  type StreamInput,
  type StreamPart,
  splitMeta,
  TxcriptError,
} from "@txcript/core";
import {
  type PiPlan,
  PiPlanner,
  type PiWriteOptions,
  piLinesOf,
  samePlan,
} from "./common-to-pi.js";
import { harness } from "./pi-schema.js";

/** The plan of a stream's messages, each counted as it passes; the subagents counted after them. */
function planned(rest: Iterator<StreamPart>): { messages: Generator<Message>; plan: () => PiPlan } {
  const planner = new PiPlanner();
  let subagents = 0;
  const messages = function* (): Generator<Message> {
    for (const message of restMessages(rest, () => {
      subagents += 1;
    })) {
      planner.add(message);
      yield message;
    }
  };
  return { messages: messages(), plan: () => planner.plan(subagents) };
}

/** The session text for a stream of parts, a line and its newline at a time. */
export function* piWriteStream(input: StreamInput, options: CodecOptions): Generator<string> {
  const { meta, rest } = splitMeta(input.parts);
  // Pass one (a replay, silent): what the lines need before the messages are written.
  const ahead = planned(splitMeta(input.replay()).rest);
  for (const _ of ahead.messages);
  const plan = ahead.plan();
  // Pass two: the lines, the messages as they are read, planned again to check the replay.
  const read = planned(rest);
  for (const line of piLinesOf(meta, read.messages, plan, options as PiWriteOptions))
    yield `${line}\n`;
  // The subagents follow the messages; read them (and the order check) to the end.
  for (const _ of read.messages);
  if (!samePlan(read.plan(), plan))
    throw new TxcriptError("MISMATCH", "the transcript changed between the two passes", {
      harness,
      hint: "the input changed while it was read, or this is a bug in txcript's streaming writer",
    });
}
