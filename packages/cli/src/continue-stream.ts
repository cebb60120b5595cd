// The streaming source of `continue`: a session file of at least
// TXCRIPT_STREAM_MIN_BYTES whose harness reads line by line is never held
// whole. Pass one (silent) counts the messages and finds the last
// compaction; the copy starts there (the default) or, with --full or when
// there is none, at the first message. Pass two reads the warnings of the
// read leg, writes the whole session into the archive's
// transcript.common.json as it goes, and measures each message of the copy
// for the budget (core's BudgetFit); pass three (silent) keeps what the fit
// keeps. Only what stays is held, so the copy's memory follows the budget,
// not the session's size. The notes, the archive and its index are
// planCopy's (continue-plan.ts), and the fit is fitForTarget's. With
// --redact one more read first finds the secrets, and every pass reads
// them replaced (redaction.ts). A range (`#5-12`) is found in pass one
// (the session's count and tool pairs: sliceForCopy's checks) and the
// copy is its messages, with no subagents, as on the whole path.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  type CodecOptions,
  commonDocumentPieces,
  compactionOf,
  fileLineSource,
  type Message,
  makeDirectoryInside,
  type StreamPart,
  type Subagent,
  type Transcript,
  type Warning,
  WarningCollector,
  writeFileAtomic,
} from "@txcript/core";
import { integerOption, type Values } from "./args.js";
import {
  archiveDirectory,
  exists,
  fitNotes,
  streamFitForTarget,
  writeArchive,
} from "./context-budget.js";
import { compactionsAsText, fullNote, type Plan, withNote } from "./continue-plan.js";
import type { Harness } from "./harnesses.js";
import type { Input, Located } from "./input.js";
import type { Io } from "./io.js";
import { maxInputBytes } from "./limits.js";
import { onLeg, type ReportSettings } from "./losses.js";
import { note } from "./output.js";
import { bigInputStatus } from "./progress.js";
import { copyBounds, type Range, ToolPairs } from "./range.js";
import { redactedReaderIfAsked } from "./redaction.js";
import { locate, withFile, withFileEach } from "./report.js";
import { lineByLineSource } from "./stream-convert.js";

export interface StreamedCopy {
  input: Input;
  readWarnings: Warning[];
  /** The session as far as the copy needs it: its meta, and the copy's messages as fitted. */
  transcript: Transcript;
  directory: string;
  plan: Plan;
}

/**
 * The copy's source read as a stream, when it streams (see the module
 * comment); undefined for the whole path. `directoryFor` is continue's
 * choice of where the copy resumes, given the recorded cwd.
 */
export async function streamedCopy(
  io: Io,
  given: Located,
  options: {
    values: Values;
    settings: ReportSettings;
    /** A range of the session (`#5-12`): the copy is those messages, as the whole path's sliceForCopy cuts them. */
    range: Range | undefined;
    target: Harness;
    directoryFor: (cwd: string | undefined) => Promise<string>;
  },
): Promise<StreamedCopy | undefined> {
  // The copy is written from the whole fitted transcript: only the read is line by line.
  const source = await lineByLineSource(given, io, () => undefined);
  if (source === undefined) return undefined;
  const { harness, alone, located } = source;
  const { values, settings, target } = options;
  const limit = maxInputBytes(io.env);
  const full = values.full === true;
  const lines = fileLineSource(located.path, { shown: located.shown, harness: harness.id });
  const read: CodecOptions = {
    ...harness.readOptions?.({ startTime: located.mtime }),
    ...alone,
    file: located.shown,
    maxDocumentBytes: limit,
  };
  const { onWarning: _, ...silent } = read;
  bigInputStatus(io, located.shown, located.size);
  // Secrets go before anything is written (as on the whole path): with
  // --redact one more read finds them, and every pass reads them replaced.
  const reader = await redactedReaderIfAsked(io, values, options.settings, {
    reader: harness.readStream as NonNullable<Harness["readStream"]>,
    lines,
    read,
    file: located.shown,
  });
  // Pass one, silent: how many messages, and where the last compaction is
  // (with a range: its bounds, checked against the session's tool pairs).
  const { range } = options;
  let count = 0;
  let last = -1;
  const pairs = new ToolPairs();
  if (!full || range !== undefined)
    withFile(located.shown, () => {
      for (const part of reader(lines, silent))
        if (part.kind === "message") {
          if (compactionOf(part.message) !== undefined) last = count;
          count += 1;
          if (range !== undefined) pairs.add(part.message);
        }
    });
  // The messages copied, 0-based [from, to): the range's, else all.
  const window =
    range === undefined
      ? { from: 0, to: Number.POSITIVE_INFINITY }
      : (({ from, to }) => ({ from: from - 1, to }))(copyBounds(range, count, pairs.pairs()));
  // Where the copy starts in the window: the last compaction, or (--full,
  // a range, or none) the first message.
  const start = !full && range === undefined && last > 0 ? last : 0;
  const budget = integerOption(values, "budget", "continue", 1);
  const { fit, finish } = await streamFitForTarget(target.id, budget);
  // Pass two: the read leg's warnings, the copy's messages measured, and the
  // whole session (a range: its messages) written into the archive (under a
  // pending name when the copy starts at the first message: it is kept only
  // if something is cut).
  const collector = new WarningCollector();
  const subagents: Subagent[] = [];
  const parts = reader(lines, { ...read, onWarning: onLeg("read", harness.id, collector.add) });
  const iterator = parts[Symbol.iterator]();
  const first = withFile(located.shown, () => iterator.next());
  const head = first.value as StreamPart | undefined;
  if (first.done || head?.kind !== "meta") throw new Error("a stream starts with its meta");
  const { meta } = head;
  // A range's copy has no subagents (as sliceForCopy's).
  const announced = head.subagents && range === undefined;
  const directory = await options.directoryFor(meta.cwd);
  const archive = archiveDirectory(directory, meta.id);
  let index = 0;
  let ordinal = 0;
  let firstTimestamp: string | undefined;
  const messages = function* (): Generator<Message> {
    for (let next = iterator.next(); !next.done; next = iterator.next()) {
      const part = next.value;
      if (part.kind === "subagent") {
        if (announced) subagents.push(part.subagent);
      } else if (part.kind === "message") {
        const inWindow = ordinal >= window.from && ordinal < window.to;
        ordinal += 1;
        if (!inWindow) continue;
        if (index >= start) fit.measure(part.message);
        if (index === 0) firstTimestamp = part.message.timestamp;
        index += 1;
        yield part.message;
      }
    }
  };
  const archived = path.join(archive, "transcript.common.json");
  const written = start > 0 ? archived : `${archived}.pending`;
  const created = !(await exists(archive));
  const dropArchive = async () => {
    await (created
      ? fs.rm(archive, { recursive: true, force: true })
      : fs.rm(written, { force: true }));
  };
  // Never through a `.txcript` link; writeArchive adds the .gitignore once something is archived.
  await makeDirectoryInside(directory, archive);
  await writeFileAtomic(
    written,
    withFileEach(
      located.shown,
      commonDocumentPieces(meta, messages(), () => (announced ? subagents : undefined)),
    ),
    { overwrite: true, mode: 0o600 },
  );
  count = index;
  // Pass three, silent: the copy's messages kept as the fit says.
  let fitted: ReturnType<typeof finish>;
  try {
    withFile(located.shown, () => {
      let at = 0;
      let ordinal = 0;
      for (const part of reader(lines, silent))
        if (part.kind === "message") {
          const inWindow = ordinal >= window.from && ordinal < window.to;
          ordinal += 1;
          if (!inWindow) continue;
          if (at >= start) fit.keep(part.message);
          at += 1;
        }
    });
    fitted = finish();
  } catch (error) {
    // As on the whole path, a copy that cannot be fitted leaves no archive behind.
    await dropArchive();
    throw locate(error, located.shown);
  }
  const input: Input = {
    text: "",
    file: located.shown,
    harness,
    startTime: located.mtime,
    ...(located.discovered === undefined ? {} : { discovered: located.discovered }),
  };
  const kept: Transcript = {
    meta,
    messages: fitted.messages,
    ...(subagents.length > 0 ? { subagents } : {}),
  };
  // --full: its compaction markers as plain text, so the target sends the whole history (as planCopy).
  const { transcript, ...removed } = full
    ? compactionsAsText(kept)
    : { transcript: kept, asText: 0, dropped: 0 };
  // What planCopy says and does after fromLastCompaction, on the copy.
  if (start > 0)
    await note(
      io,
      settings,
      `starting from the last compaction, as ${harness.id} would: ${start} earlier message${start === 1 ? "" : "s"} left out (--full replays everything)`,
    );
  else if (full) await note(io, settings, `replaying all ${count} messages (--full)`);
  if (removed.asText + removed.dropped > 0) await note(io, settings, fullNote(removed, target.id));
  for (const line of fitNotes(fitted)) await note(io, settings, line);
  const result = { input, readWarnings: collector.warnings, directory };
  if (start === 0 && fitted.cuts.length === 0) {
    // Nothing left out: no archive, as on the whole path.
    await dropArchive();
    return { ...result, transcript, plan: { copy: transcript } };
  }
  if (written !== archived) await fs.rename(written, archived);
  const summary = [
    start > 0 ? `${start} messages before the last compaction` : undefined,
    fitted.cuts.length > 0
      ? `${fitted.cuts.length} cuts to fit ${fitted.budget} tokens (${fitted.before} → ${fitted.after})`
      : undefined,
  ]
    .filter(Boolean)
    .join("; ");
  const archivedAs = await writeArchive(
    directory,
    { meta, count, firstTimestamp },
    { before: fitted.before, cuts: fitted.cuts, firstKept: start + 1 },
    summary,
    { created },
  );
  await note(io, settings, `what was left out is archived in ${archivedAs.directory}`);
  return {
    ...result,
    transcript,
    plan: {
      copy: withNote(transcript, archivedAs.note),
      archive: archivedAs.directory,
      archiveCreated: archivedAs.created,
    },
  };
}
