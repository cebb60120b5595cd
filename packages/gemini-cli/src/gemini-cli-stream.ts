// A Gemini CLI recording read line by line (core's stream.ts), with the
// meta, messages and warnings of geminiCliToCommon(parseSession(text)).
//
// A record can change a message written long before it: a record with the
// same id replaces it in its place, `$rewindTo` cuts it, a `$set.messages`
// checkpoint clears it, and `$set` changes the metadata the meta comes from
// (gemini-cli-records.ts). So pass one runs the loader's replay
// (RecordReplay) over every line keeping, per message it would load, only
// where its last record is (line, array entry), its id and its timestamp,
// and of the metadata only the keys the meta reads. That settles the
// meta, the replay's warnings and which records become messages, in which
// order. Pass two parses only the lines holding those records and hands
// out each message once every message before it has been read: a message's
// place is where its first record was, its content its last record's, so
// the records read ahead of a rewritten one wait for it (Gemini CLI
// rewrites a gemini record a few lines on, when its tool calls finish).
// Memory is pass one's few fields per kept message, plus those waiting
// records; a `$set.messages` checkpoint is one line, read as one value.
//
// A recording no line identifies (no sessionId and projectHash: the
// whole-document era, ≤ 0.38) is one JSON document: it is read whole, as
// parseSession reads it, up to `maxDocumentBytes` (500 MiB by default:
// Node holds little more as one string).
import {
  type CodecOptions,
  isJsonObject,
  type JsonObject,
  type LineSource,
  ownValue,
  parseJson,
  type StreamPart,
  stringAt,
  TxcriptError,
  transcriptParts,
} from "@txcript/core";
import { agentIdsOf, geminiLoneFileKey, warnMissingSubagents } from "./gemini-cli-load.js";
import {
  type RecordAt,
  RecordReplay,
  recordIn,
  recordPath,
  replay as replayRecording,
} from "./gemini-cli-records.js";
import { harness, parseSession } from "./gemini-cli-schema.js";
import {
  type GeminiCliReadOptions,
  geminiCliToCommon,
  metaKeys,
  RecordReader,
  recordTime,
  replayWarnings,
  sessionMeta,
} from "./gemini-cli-to-common.js";

/** The longest whole-document recording read by default: 500 MiB, as the CLI's input limit. */
export const defaultMaxDocumentBytes = 500 * 2 ** 20;

/** Where pass one found a kept message's (last) record, with its id and timestamp. */
interface Source extends RecordAt {
  readonly line: number;
  readonly id: string;
  readonly time: string | undefined;
}

function fileOf(options: CodecOptions): { file?: string } {
  return typeof options.file === "string" ? { file: options.file } : {};
}

/** One line as parseSession reads it: blank (no value), bad, or a JSON object. */
function parseLine(text: string): { value?: JsonObject; bad?: true } {
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = parseJson(text, { harness });
  } catch (error) {
    if (!TxcriptError.isInstance(error)) throw error;
  }
  return isJsonObject(value) ? { value } : { bad: true };
}

/** Whether the metadata names a session id and project hash: parseSession then reads the text as JSONL. */
function identified(metadata: JsonObject): boolean {
  const sessionId = ownValue(metadata, "sessionId");
  const projectHash = ownValue(metadata, "projectHash");
  return (
    typeof sessionId === "string" &&
    sessionId !== "" &&
    typeof projectHash === "string" &&
    projectHash !== ""
  );
}

/** The lines joined as the document's text, refused past `limit` bytes. */
function documentText(lines: LineSource, limit: number, options: CodecOptions): string {
  const pieces: string[] = [];
  let bytes = -1;
  for (const line of lines()) {
    bytes += Buffer.byteLength(line, "utf8") + 1;
    if (bytes > limit)
      throw new TxcriptError(
        "TOO_LARGE",
        `a whole-document Gemini CLI recording is read whole, and this one is past ${limit} bytes`,
        {
          harness,
          location: fileOf(options),
          hint: "only the JSONL recordings of Gemini CLI 0.39 and later are read line by line",
        },
      );
    pieces.push(line);
  }
  return pieces.join("\n");
}

function changed(options: CodecOptions, line?: number): TxcriptError {
  return new TxcriptError("MISMATCH", "the recording changed between the two passes", {
    harness,
    location: { ...fileOf(options), ...(line === undefined ? {} : { line }) },
    hint: "the file changed while it was read, or this is a bug in txcript's streaming reader",
  });
}

/**
 * The parts of a Gemini CLI recording read line by line (pass `file` in the
 * options for error locations, `cwd` for meta.cwd as in toCommon, and
 * `maxDocumentBytes` for the whole-document era's limit).
 */
export function* geminiCliReadStream(
  lines: LineSource,
  options: CodecOptions,
): Generator<StreamPart> {
  const read = options as GeminiCliReadOptions;
  // A lone recording (geminiReadsAlone): each subagent its calls name is missing, as its load says.
  const lone = options[geminiLoneFileKey] === true;
  const named: string[] = [];
  // Pass one: the replay, keeping where each kept record is.
  const metadata: JsonObject = {};
  const replay = new RecordReplay<Source>(
    (record, at, id) => ({ ...at, line: at.line as number, id, time: recordTime(record) }),
    (source) => {
      // The keys the meta reads, merged as assignAll merges them all.
      for (const key of Object.keys(source))
        if (metaKeys.has(key)) metadata[key] = source[key] as JsonObject[string];
    },
  );
  let count = 0;
  for (const text of lines()) {
    count += 1;
    replay.line(parseLine(text), count);
  }
  if (!identified(metadata)) {
    const limit =
      typeof options.maxDocumentBytes === "number"
        ? options.maxDocumentBytes
        : defaultMaxDocumentBytes;
    const session = parseSession(documentText(lines, limit, options), fileOf(options));
    yield* transcriptParts(geminiCliToCommon(session, read));
    if (lone)
      warnMissingSubagents(
        replayRecording(session).messages.flatMap(({ record }) => agentIdsOf(record)),
        new Set(),
        options.file,
        read,
      );
    return;
  }
  const kept = [...replay.byId.values()];
  replay.byId.clear();
  replayWarnings(replay, read);
  const firstTime = kept.find((source) => source.time !== undefined)?.time;
  const meta = sessionMeta(metadata, firstTime, undefined, read);
  yield { kind: "meta", meta, subagents: false };

  // Pass two: the kept records, in file order, handed out in conversation order.
  const order = kept.map((_, position) => position);
  order.sort((a, b) => {
    const left = kept[a] as Source;
    const right = kept[b] as Source;
    return left.line - right.line || (left.entry ?? -1) - (right.entry ?? -1);
  });
  const reader = new RecordReader(meta, read);
  const waiting = new Map<number, JsonObject>();
  let taken = 0;
  let next = 0;
  let line = 0;
  for (const text of lines()) {
    line += 1;
    if (taken === order.length) break;
    if ((kept[order[taken] as number] as Source).line !== line) continue;
    const { value } = parseLine(text);
    while (taken < order.length && (kept[order[taken] as number] as Source).line === line) {
      const position = order[taken] as number;
      taken += 1;
      const source = kept[position] as Source;
      const record = value === undefined ? undefined : recordIn(value, source);
      if (!isJsonObject(record) || stringAt(record, "id") !== source.id)
        throw changed(options, line);
      waiting.set(position, record);
    }
    for (let record = waiting.get(next); record !== undefined; record = waiting.get(next)) {
      waiting.delete(next);
      if (lone) named.push(...agentIdsOf(record));
      for (const message of reader.messages(record, recordPath(kept[next] as Source)))
        yield { kind: "message", message };
      next += 1;
    }
  }
  if (next !== kept.length) throw changed(options);
  if (lone) warnMissingSubagents(named, new Set(), options.file, read);
}
