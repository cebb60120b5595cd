// `--redact` and `--redact-report FILE`: secrets found in any text, tool
// input or tool output are replaced by `[redacted: <kind>]` (by
// @txcript/redact, loaded only when asked) before anything is written or
// shown; a summary goes to stderr and, with --redact-report, the whole
// report to a JSON file. Ids and structure are never touched.
import * as path from "node:path";
import {
  type CodecOptions,
  type LineSource,
  type StreamReader,
  type Transcript,
  writeFileAtomic,
} from "@txcript/core";
import type { RedactionReport } from "@txcript/redact";
import { stringOption, type Values } from "./args.js";
import { type Io, write } from "./io.js";
import type { ReportSettings } from "./losses.js";
import { locate } from "./report.js";

export interface Redaction {
  total: number;
  kinds: Record<string, { count: number; messages: number[] }>;
}

/** Whether --redact (or --redact-report) was given. */
export function redactionAsked(values: Values): boolean {
  return values.redact === true || stringOption(values, "redact-report") !== undefined;
}

/** The summary on stderr and, with --redact-report, the report's file. */
async function reportRedaction(
  io: Io,
  values: Values,
  settings: ReportSettings,
  report: RedactionReport,
  summarize: (report: RedactionReport) => string,
): Promise<Redaction> {
  const reportFile = stringOption(values, "redact-report");
  if (!settings.quiet && !settings.json) await write(io.stderr, `txcript: ${summarize(report)}\n`);
  if (reportFile !== undefined)
    await writeFileAtomic(
      path.resolve(io.cwd, reportFile),
      `${JSON.stringify(report, null, 2)}\n`,
      {
        overwrite: values.force === true,
      },
    );
  return { total: report.total, kinds: report.kinds };
}

/** The transcript with its secrets replaced when --redact (or --redact-report) was given. */
export async function redactIfAsked(
  io: Io,
  values: Values,
  transcript: Transcript,
  settings: ReportSettings,
): Promise<{ transcript: Transcript; redaction?: Redaction }> {
  if (!redactionAsked(values)) return { transcript };
  const { redactTranscript, summarizeReport } = await import("@txcript/redact");
  const { transcript: redacted, report } = await redactTranscript(transcript);
  const redaction = await reportRedaction(io, values, settings, report, summarizeReport);
  return { transcript: redacted, redaction };
}

/**
 * A streamed session's reader with its secrets replaced, when --redact (or
 * --redact-report) was given: one more silent read of the file finds them
 * (the whole path's findings and report, @txcript/redact's
 * planPartsRedaction), then every read the conversion makes gives the parts
 * redacted. The reader itself otherwise.
 */
export async function redactedReaderIfAsked(
  io: Io,
  values: Values,
  settings: ReportSettings,
  stream: { reader: StreamReader; lines: LineSource; read: CodecOptions; file: string },
): Promise<StreamReader> {
  const { reader } = stream;
  if (!redactionAsked(values)) return reader;
  const { planPartsRedaction, summarizeReport } = await import("@txcript/redact");
  const { onWarning: _, ...silent } = stream.read;
  const plan = await planPartsRedaction(reader(stream.lines, silent)).catch((error: unknown) => {
    throw locate(error, stream.file);
  });
  await reportRedaction(io, values, settings, plan.report, summarizeReport);
  return (lines, options) => plan.apply(reader(lines, options));
}
