// `txcript view -` on a stream-json pipe: prints each message as soon as the
// next one starts (the last may still grow: Claude Code splits one answer
// over several lines), so `amp -x … --stream-json | txcript view -` reads
// along while the agent runs. Memory is bounded by the longest message (and
// the uuids seen), never the stream: a finished message is printed and dropped.
import type { Readable } from "node:stream";
import {
  isJsonObject,
  type Message,
  type Meta,
  ownValue,
  type Transcript,
  toText,
} from "@txcript/core";
import {
  readStreamJsonLines,
  StreamJsonAccumulator,
  type StreamJsonRecord,
} from "@txcript/stream-json";
import { type Io, write } from "./io.js";

/** The stdin chunks, with what was already read to sniff the format put back in front. */
async function* prepend(head: Buffer, rest: Readable): AsyncGenerator<Uint8Array> {
  if (head.length > 0) yield head;
  for await (const chunk of rest) yield chunk as Uint8Array;
}

/** Read stdin up to its first newline (or its end, or past `limit` bytes), to sniff the format. */
export async function readFirstLine(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk: Buffer | null = stream.read();
    if (chunk === null) {
      if (stream.readableEnded) break;
      const more = await new Promise<boolean>((resolve) => {
        const onReadable = () => finish(true);
        const onEnd = () => finish(false);
        const finish = (value: boolean) => {
          stream.off("readable", onReadable);
          stream.off("end", onEnd);
          resolve(value);
        };
        stream.once("readable", onReadable);
        stream.once("end", onEnd);
      });
      if (!more && stream.readableLength === 0) break;
      continue;
    }
    chunks.push(chunk);
    total += chunk.length;
    if (chunk.includes(10) || total > limit) break;
  }
  return Buffer.concat(chunks);
}

/** Latest time the accumulator stamps (9999-12-31), as in stream-json. */
const maximumTime = 253_402_300_799_999;

/**
 * Prints a message at a time under its ordinal over the whole transcript:
 * toText of a one-message transcript, with its header cut off and `#1`
 * renumbered (the rendering of a message depends on nothing else).
 */
class MessagePrinter {
  readonly #color: boolean;
  #headerLength = 0;
  #printed = 0;

  constructor(color: boolean) {
    this.#color = color;
  }

  header(meta: Meta): string {
    const header = toText({ meta, messages: [] }, { color: this.#color });
    this.#headerLength = header.length;
    return header;
  }

  message(meta: Meta, message: Message): string {
    this.#printed += 1;
    const text = toText({ meta, messages: [message] }, { color: this.#color }).slice(
      this.#headerLength,
    );
    const first = `\n${this.#color ? "\u001b[1m" : ""}#1 `;
    if (!text.startsWith(first)) throw new Error("unreachable: toText starts a message with #1");
    return `${first.slice(0, -3)}#${this.#printed} ${text.slice(first.length)}`;
  }
}

/**
 * A fresh accumulator that goes on where `previous` was, holding only the
 * message the last line began: it learns the session from a bare line, keeps
 * the dialect, starts its clock where the previous one stood (a line without
 * a timestamp is stamped 1 ms after the last message), and reads that line again.
 */
function restart(
  previous: StreamJsonAccumulator,
  snapshot: Transcript,
  record: StreamJsonRecord,
): StreamJsonAccumulator {
  const finished = snapshot.messages.at(-2);
  const clock = finished === undefined ? undefined : Date.parse(finished.timestamp);
  const next = new StreamJsonAccumulator({
    startTime: new Date(clock === undefined ? Date.now() : Math.min(clock + 1, maximumTime)),
    ...(previous.dialect === undefined ? {} : { dialect: previous.dialect }),
  });
  next.push({ value: { session_id: snapshot.meta.id } });
  next.push(record);
  return next;
}

/**
 * Print a stream-json pipe as it arrives, each message once it is finished
 * (the next one began) and then dropped: the accumulator only ever holds the
 * open message, and what is kept across the stream is the header's meta and
 * the uuids seen (Claude Code repeats lines; one of each is read). The text
 * is the same as `toText` of the whole capture. Losses are not collected: a
 * view prints none.
 */
export async function liveView(io: Io, head: Buffer, color: boolean): Promise<void> {
  let accumulator = new StreamJsonAccumulator({ startTime: new Date() });
  const printer = new MessagePrinter(color);
  const seen = new Set<string>();
  let meta: Meta | undefined;
  for await (const { value, line } of readStreamJsonLines(prepend(head, io.stdin), {
    file: "<stdin>",
  })) {
    // The accumulator drops a repeated uuid; it forgets them when restarted, so they are kept here.
    const uuid = isJsonObject(value) ? ownValue(value, "uuid") : undefined;
    if (typeof uuid === "string") {
      if (seen.has(uuid)) continue;
      seen.add(uuid);
    }
    const record = { value, line };
    accumulator.push(record);
    const snapshot = accumulator.snapshot();
    if (snapshot === undefined || snapshot.messages.length < 2) continue;
    // The line began a message, so every one before it is finished.
    if (meta === undefined) {
      meta = snapshot.meta;
      await write(io.stdout, printer.header(meta));
    }
    for (const message of snapshot.messages.slice(0, -1))
      await write(io.stdout, printer.message(meta, message));
    accumulator = restart(accumulator, snapshot, record);
  }
  const transcript = accumulator.transcript();
  if (meta === undefined) {
    meta = transcript.meta;
    await write(io.stdout, printer.header(meta));
  }
  for (const message of transcript.messages) await write(io.stdout, printer.message(meta, message));
}
