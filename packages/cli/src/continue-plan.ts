// What `continue` writes: the session (or its range), started where the
// source agent would start it (after its last compaction, unless --full),
// fitted into the target's context budget, with an archive of anything left
// out beside the project and one note in the session pointing at it.
import {
  compactionOf,
  fromLastCompaction,
  lastCompactionIndex,
  type Message,
  type Transcript,
} from "@txcript/core";
import { integerOption, type Values } from "./args.js";
import { fitForTarget, writeArchive } from "./context-budget.js";
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

/**
 * One message without its compaction markers (withoutCompactions, a message at
 * a time for the streamed copy): undefined when it was a marker or nothing else
 * is left, with how many marker blocks went.
 */
export function withoutCompaction(message: Message): { message?: Message; removed: number } {
  const kept = message.content.filter((block) => block.type !== "compaction");
  const removed = message.content.length - kept.length;
  if (compactionOf(message) !== undefined || (kept.length === 0 && message.content.length > 0))
    return { removed };
  return { message: removed === 0 ? message : { ...message, content: kept }, removed };
}

/**
 * `--full`: the copy without its compaction markers, so the target's
 * program sends the whole history (every target starts reading at its last
 * compaction). A message that was only a marker goes; a marker among other
 * blocks goes from it. Returns how many markers were taken out.
 */
export function withoutCompactions(transcript: Transcript): {
  transcript: Transcript;
  removed: number;
} {
  let removed = 0;
  const messages: Message[] = [];
  for (const message of transcript.messages) {
    const stripped = withoutCompaction(message);
    removed += stripped.removed;
    if (stripped.message !== undefined) messages.push(stripped.message);
  }
  return removed === 0
    ? { transcript, removed }
    : { transcript: { ...transcript, messages }, removed };
}

/** The note `--full` gives when it takes compaction markers out. */
export function fullNote(removed: number, target: string): string {
  return `--full: ${removed} compaction marker${removed === 1 ? "" : "s"} (and ${removed === 1 ? "its summary" : "their summaries"}) left out, so ${target} sends the whole history instead of starting at the compaction`;
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
  // then written without them, so the target sends the whole history.
  const sliced = start;
  const removed = full ? withoutCompactions(start).removed : 0;
  const unmarked = (transcript: Transcript) =>
    full ? withoutCompactions(transcript).transcript : transcript;
  if (skipped > 0)
    await note(
      io,
      settings,
      `starting from the last compaction, as ${options.source} would: ${skipped} earlier message${skipped === 1 ? "" : "s"} left out (--full replays everything)`,
    );
  else if (full)
    await note(io, settings, `replaying all ${ranged.messages.length} messages (--full)`);
  if (removed > 0) await note(io, settings, fullNote(removed, target));
  const budget = integerOption(values, "budget", "continue", 1);
  const fitted = await fitForTarget(sliced, target, budget).catch((error: unknown) => {
    throw locate(error, options.file);
  });
  if (fitted.cuts.length > 0)
    await note(
      io,
      settings,
      `fitted into a budget of ${fitted.budget} tokens (${fitted.counter}): ${fitted.before} → ${fitted.after} tokens, ${fitted.cuts.length} cut${fitted.cuts.length === 1 ? "" : "s"}`,
    );
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
