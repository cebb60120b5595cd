// `--redact` and `--redact-report FILE`: secrets found in any text, tool
// input or tool output are replaced by `[redacted: <kind>]` (by
// @txcript/redact, loaded only when asked) before anything is written or
// shown; a summary goes to stderr and, with --redact-report, the whole
// report to a JSON file. Ids and structure are never touched.
import * as path from "node:path";
import { type Transcript, writeFileAtomic } from "@txcript/core";
import { stringOption, type Values } from "./args.js";
import { type Io, write } from "./io.js";
import type { ReportSettings } from "./losses.js";

export interface Redaction {
  total: number;
  kinds: Record<string, { count: number; messages: number[] }>;
}

/** The transcript with its secrets replaced when --redact (or --redact-report) was given. */
export async function redactIfAsked(
  io: Io,
  values: Values,
  transcript: Transcript,
  settings: ReportSettings,
): Promise<{ transcript: Transcript; redaction?: Redaction }> {
  const reportFile = stringOption(values, "redact-report");
  if (values.redact !== true && reportFile === undefined) return { transcript };
  const { redactTranscript, summarizeReport } = await import("@txcript/redact");
  const { transcript: redacted, report } = await redactTranscript(transcript);
  if (!settings.quiet && !settings.json)
    await write(io.stderr, `txcript: ${summarizeReport(report)}\n`);
  if (reportFile !== undefined)
    await writeFileAtomic(
      path.resolve(io.cwd, reportFile),
      `${JSON.stringify(report, null, 2)}\n`,
      {
        overwrite: values.force === true,
      },
    );
  return { transcript: redacted, redaction: { total: report.total, kinds: report.kinds } };
}
