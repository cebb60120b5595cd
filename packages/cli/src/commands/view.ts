// `txcript view`: the compact numbered text from core, optionally cut to a
// range of the printed ordinals. Viewing never refuses a range that cuts a
// tool call (nothing is copied); only ordinals outside the session fail.
// A stream-json pipe on stdin (no range) is shown live, message by message.
// Losses are not printed: the view is itself a projection, not a copy.
import { Readable } from "node:stream";
import { TxcriptError, toText } from "@txcript/core";
import { type Parsed, stringOption } from "../args.js";
import { harnessNamed, recognizes } from "../harnesses.js";
import { readInput, readTranscript } from "../input.js";
import { type Io, useColor } from "../io.js";
import { maxInputBytes, readAllLimited, tooLarge } from "../limits.js";
import { reportSettings } from "../losses.js";
import { writeOutput } from "../output.js";
import { resolveRange, splitRange } from "../range.js";
import { redactIfAsked } from "../redaction.js";
import { terminalSafeDeep } from "../terminal-text.js";

export async function viewCommand(io: Io, { values, positionals }: Parsed): Promise<number> {
  const { ref, range } = splitRange(positionals[0] as string);
  const from = stringOption(values, "from");
  const color = useColor(io, "stdout");
  // A page, a file or redaction needs the whole session: no live view then.
  const whole =
    values.html === true ||
    stringOption(values, "output") !== undefined ||
    values.redact === true ||
    stringOption(values, "redact-report") !== undefined;
  if (ref === "-" && range === undefined && !whole) {
    // The live view reads stream-json (and Amp's tool dialect): loaded for a pipe only.
    const { liveView, readFirstLine } = await import("../live-view.js");
    const forced = from === undefined ? undefined : await harnessNamed(from);
    // A first line past the limit could not be parsed whole, live or not.
    const limit = maxInputBytes(io.env);
    const head = await readFirstLine(io.stdin, limit);
    const newline = head.indexOf(10);
    if ((newline === -1 ? head.length : newline) > limit) {
      io.stdin.destroy();
      throw tooLarge("<stdin>", limit);
    }
    const live = forced
      ? forced.id === "stream_json"
      : recognizes("stream_json", head.toString("utf8"));
    if (live) {
      try {
        await liveView(io, head, color);
      } catch (error) {
        throw TxcriptError.isInstance(error) && error.location.file === undefined
          ? error.withLocation({ file: "<stdin>" })
          : error;
      }
      return 0;
    }
    const text = await readAllLimited(io.stdin, limit, head);
    return show(
      io,
      values,
      await readInput("-", { ...io, stdin: textStream(text) }, from),
      range,
      color,
    );
  }
  return show(io, values, await readInput(ref, io, from), range, color);
}

function textStream(text: string): Io["stdin"] {
  return Readable.from([Buffer.from(text, "utf8")]);
}

async function show(
  io: Io,
  values: Parsed["values"],
  input: Awaited<ReturnType<typeof readInput>>,
  range: ReturnType<typeof splitRange>["range"],
  color: boolean,
): Promise<number> {
  const settings = reportSettings(values);
  const { transcript } = await redactIfAsked(
    io,
    values,
    (await readTranscript(input)).transcript,
    settings,
  );
  const bounds = range === undefined ? undefined : resolveRange(range, transcript);
  const output = stringOption(values, "output");
  const toFile = output !== undefined && output !== "-";
  if (values.html === true) {
    const { renderHtml } = await import("@txcript/html");
    const page = renderHtml(transcript, {
      harness: input.harness.id,
      ...(bounds === undefined ? {} : { range: bounds }),
    });
    await writeOutput(io, page, output, values.force === true, settings);
    return 0;
  }
  // The text is for a person at a terminal: nothing in the session may act on it.
  const text = toText(terminalSafeDeep(transcript), {
    color: color && !toFile,
    ...(bounds === undefined ? {} : { range: bounds }),
  });
  await writeOutput(io, text, output, values.force === true, settings);
  return 0;
}
