// `txcript export`: the Common document of a session (or of a range that
// keeps every tool call with its result), to stdout or a file.
import { commonCodec } from "@txcript/core";
import { type Parsed, stringOption } from "../args.js";
import { readInput, readTranscript } from "../input.js";
import type { Io } from "../io.js";
import { lossJson, reportSettings } from "../losses.js";
import { printWarnings, writeOutput } from "../output.js";
import { sliceForCopy, splitRange } from "../range.js";
import { redactIfAsked } from "../redaction.js";
import { withFile } from "../report.js";
import { inputJson, printResult, requireFileOutput } from "../result.js";

export async function exportCommand(io: Io, { values, positionals }: Parsed): Promise<number> {
  const { ref, range } = splitRange(positionals[0] as string);
  const input = await readInput(ref, io, stringOption(values, "from"));
  const settings = reportSettings(values);
  const read = await readTranscript(input);
  const { warnings } = read;
  const { transcript } = await redactIfAsked(io, values, read.transcript, settings);
  const copy = sliceForCopy(transcript, range);
  // The writer's errors (a document too deep to print, say) name the input they come from.
  const text = withFile(input.file, () => commonCodec.serialize(commonCodec.fromCommon(copy)));
  const output = stringOption(values, "output");
  if (settings.json) requireFileOutput(output, "export");
  await writeOutput(io, text, output, values.force === true, settings);
  await printWarnings(io, warnings, settings);
  if (settings.json)
    await printResult(io, {
      command: "export",
      input: inputJson(input, transcript.meta.id),
      outputs: [{ harness: "common", path: output as string, sessionId: copy.meta.id }],
      losses: warnings.map(lossJson),
    });
  return 0;
}
