// Helpers over Common v2 compaction markers: where a harness compacted, and
// the part of a conversation the harness itself would send after the last
// compaction (the marker with its summary, and everything after it).
import type { CompactionBlock, Message, Transcript } from "./model.js";

/** The compaction block of a message that marks a compaction, else undefined. */
export function compactionOf(message: Message): CompactionBlock | undefined {
  const [first] = message.content;
  return message.content.length === 1 && first?.type === "compaction" ? first : undefined;
}

/** Index of the last compaction marker in `messages`, or -1. */
export function lastCompactionIndex(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index -= 1)
    if (compactionOf(messages[index] as Message) !== undefined) return index;
  return -1;
}

/** The transcript from its last compaction marker on (the whole transcript when it has none). */
export function fromLastCompaction(transcript: Transcript): Transcript {
  const index = lastCompactionIndex(transcript.messages);
  return index <= 0 ? transcript : { ...transcript, messages: transcript.messages.slice(index) };
}
