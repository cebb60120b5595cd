// What `continue` writes: the session (or its range), started where the
// source agent would start it (after its last compaction, unless --full),
// fitted into the target's context budget, with an archive of anything left
// out beside the project and one note in the session pointing at it.
import { fromLastCompaction, type Transcript } from "@txcript/core";
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

/** Insert `message` after the leading context messages (a system prompt stays first). */
function afterContext(transcript: Transcript, message: Transcript["messages"][number]): Transcript {
  let index = 0;
  while (index < transcript.messages.length && transcript.messages[index]?.context !== undefined)
    index += 1;
  const messages = [...transcript.messages];
  messages.splice(index, 0, message);
  return { ...transcript, messages };
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
  const sliced = options.whole && !full ? fromLastCompaction(ranged) : ranged;
  const skipped = ranged.messages.length - sliced.messages.length;
  if (skipped > 0)
    await note(
      io,
      settings,
      `starting from the last compaction, as ${options.source} would: ${skipped} earlier message${skipped === 1 ? "" : "s"} left out (--full replays everything)`,
    );
  else if (full)
    await note(io, settings, `replaying all ${ranged.messages.length} messages (--full)`);
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
  if (skipped === 0 && fitted.cuts.length === 0) return { copy: sliced };
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
    copy: afterContext(fitted.transcript, archive.note),
    archive: archive.directory,
    archiveCreated: archive.created,
  };
}
