// `txcript view`: the compact numbered text from core, optionally cut to a
// range of the printed ordinals. Viewing never refuses a range that cuts a
// tool call (nothing is copied); only ordinals outside the session fail.
import { toText } from "@txcript/core";
import { type Parsed, stringOption } from "../args.js";
import { readInput, readTranscript } from "../input.js";
import { type Io, useColor, write } from "../io.js";
import { resolveRange, splitRange } from "../range.js";

export async function viewCommand(io: Io, { values, positionals }: Parsed): Promise<number> {
  const { ref, range } = splitRange(positionals[0] as string);
  const input = await readInput(ref, io, stringOption(values, "from"));
  const { transcript } = readTranscript(input);
  const bounds = range === undefined ? undefined : resolveRange(range, transcript);
  await write(
    io.stdout,
    toText(transcript, {
      color: useColor(io, "stdout"),
      ...(bounds === undefined ? {} : { range: bounds }),
    }),
  );
  return 0;
}
