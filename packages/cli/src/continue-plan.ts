// What `continue` writes: the session (or its range), started where the
// source agent would start it (after its last compaction, unless --full),
// fitted into the target's context budget, with an archive of anything left
// out beside the project and one note in the session pointing at it.
import {
  fromLastCompaction,
  lastCompactionIndex,
  type Message,
  type Transcript,
} from "@txcript/core";
import { integerOption, type Values } from "./args.js";
import { fitForTarget, fitNotes, writeArchive } from "./context-budget.js";
import type { Io } from "./io.js";
import type { ReportSettings } from "./losses.js";
import { note } from "./output.js";
import { locate } from "./report.js";

export interface Plan {
  copy: Transcript;
  /** Where the archive went, when something was left out. */
  archive?: string;
  /** This run made the archive's directory: a continue that fails after it removes it again. */
  archiveCreated?: boolean;
}

/**
 * Insert the archive note where the target's program starts reading: after
 * the leading context messages (a system prompt stays first) and after the
 * last compaction marker, since Claude Code, pi, Codex and OpenCode send the
 * model only what follows their last compaction (and its summary).
 */
export function withNote(transcript: Transcript, message: Message): Transcript {
  let index = 0;
  while (index < transcript.messages.length && transcript.messages[index]?.context !== undefined)
    index += 1;
  index = Math.max(index, lastCompactionIndex(transcript.messages) + 1);
  const messages = [...transcript.messages];
  // Dated with the message it follows, so the note never reads as older than the summary before it.
  const before = messages[index - 1];
  messages.splice(
    index,
    0,
    before === undefined ? message : { ...message, timestamp: before.timestamp },
  );
  return { ...transcript, messages };
}

/** The label `--full` puts before a compaction summary it keeps as plain text. */
export const compactionLabel =
  "[txcript] The conversation was compacted here. The summary made then follows; the whole history it summarized is kept above (continue --full).";

/** What `--full` did to one message's or one copy's compaction markers. */
export interface Unmarked {
  /** Markers turned into plain text holding their summaries. */
  asText: number;
  /** Markers with no summary, left out. */
  dropped: number;
}

/**
 * One message with its compaction markers turned into plain text (the
 * streamed copy takes a message at a time): each marker becomes a text block
 * labelling it and a text block of its summary, so the target's program, which
 * starts reading at its last marker, sends the whole history and the summary
 * is not lost. A marker with an empty summary goes; undefined when nothing of
 * the message is left.
 */
export function compactionAsText(message: Message): { message?: Message } & Unmarked {
  let asText = 0;
  let dropped = 0;
  const content: Message["content"] = [];
  for (const block of message.content) {
    if (block.type !== "compaction") content.push(block);
    else if (block.summary.trim() === "") dropped += 1;
    else {
      asText += 1;
      content.push({ type: "text", text: compactionLabel }, { type: "text", text: block.summary });
    }
  }
  if (asText === 0 && dropped === 0) return { message, asText, dropped };
  return content.length === 0
    ? { asText, dropped }
    : { message: { ...message, content }, asText, dropped };
}

/** `--full` on a whole copy: every compaction marker as plain text (compactionAsText). */
export function compactionsAsText(transcript: Transcript): { transcript: Transcript } & Unmarked {
  let asText = 0;
  let dropped = 0;
  const messages: Message[] = [];
  for (const message of transcript.messages) {
    const unmarked = compactionAsText(message);
    asText += unmarked.asText;
    dropped += unmarked.dropped;
    if (unmarked.message !== undefined) messages.push(unmarked.message);
  }
  return asText + dropped === 0
    ? { transcript, asText, dropped }
    : { transcript: { ...transcript, messages }, asText, dropped };
}

/** The note `--full` gives when it takes compaction markers out. */
export function fullNote({ asText, dropped }: Unmarked, target: string): string {
  const plural = (count: number) => (count === 1 ? "" : "s");
  const parts = [
    asText > 0
      ? `${asText} compaction marker${plural(asText)} written as plain text (${asText === 1 ? "its summary" : "their summaries"} kept)`
      : undefined,
    dropped > 0
      ? `${dropped} compaction marker${plural(dropped)} without a summary left out`
      : undefined,
  ].filter(Boolean);
  return `--full: ${parts.join(", ")}, so ${target} sends the whole history instead of starting at the compaction`;
}

export async function planCopy(
  io: Io,
  settings: ReportSettings,
  values: Values,
  options: {
    file: string;
    ranged: Transcript;
    whole: boolean;
    source: string;
    target: string;
    directory: string;
  },
): Promise<Plan> {
  const { ranged, target, directory } = options;
  const full = values.full === true;
  const start = options.whole && !full ? fromLastCompaction(ranged) : ranged;
  const skipped = ranged.messages.length - start.messages.length;
  // --full: fitted with its compaction markers (so the archive's ordinals are the session's),
  // then written with each as plain text, so the target sends the whole history.
  const sliced = start;
  const removed = full ? compactionsAsText(start) : { asText: 0, dropped: 0 };
  const unmarked = (transcript: Transcript) =>
    full ? compactionsAsText(transcript).transcript : transcript;
  if (skipped > 0)
    await note(
      io,
      settings,
      `starting from the last compaction, as ${options.source} would: ${skipped} earlier message${skipped === 1 ? "" : "s"} left out (--full replays everything)`,
    );
  else if (full)
    await note(io, settings, `replaying all ${ranged.messages.length} messages (--full)`);
  if (removed.asText + removed.dropped > 0) await note(io, settings, fullNote(removed, target));
  const budget = integerOption(values, "budget", "continue", 1);
  const fitted = await fitForTarget(sliced, target, budget).catch((error: unknown) => {
    throw locate(error, options.file);
  });
  for (const line of fitNotes(fitted)) await note(io, settings, line);
  if (skipped === 0 && fitted.cuts.length === 0) return { copy: unmarked(sliced) };
  const summary = [
    skipped > 0 ? `${skipped} messages before the last compaction` : undefined,
    fitted.cuts.length > 0
      ? `${fitted.cuts.length} cuts to fit ${fitted.budget} tokens (${fitted.before} → ${fitted.after})`
      : undefined,
  ]
    .filter(Boolean)
    .join("; ");
  const archive = await writeArchive(
    directory,
    ranged,
    { before: fitted.before, cuts: fitted.cuts, firstKept: skipped + 1 },
    summary,
  );
  await note(io, settings, `what was left out is archived in ${archive.directory}`);
  return {
    copy: withNote(unmarked(fitted.transcript), archive.note),
    archive: archive.directory,
    archiveCreated: archive.created,
  };
}
