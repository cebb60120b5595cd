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
  type Subagent,
  type Transcript,
  toText,
} from "@txcript/core";
import {
  readStreamJsonLines,
  StreamJsonAccumulator,
  type StreamJsonRecord,
} from "@txcript/stream-json";
import { type Io, write } from "./io.js";
import { terminalSafeDeep } from "./terminal-text.js";

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
    const header = toText(terminalSafeDeep({ meta, messages: [] }), { color: this.#color });
    this.#headerLength = header.length;
    return header;
  }

  message(meta: Meta, message: Message, subagents: readonly Subagent[] = []): string {
    this.#printed += 1;
    // Its subagents are shown under their calls, as the whole view shows them.
    const calls = new Set(
      message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : [])),
    );
    const linked = subagents.filter(
      (subagent) => subagent.toolUseId !== undefined && calls.has(subagent.toolUseId),
    );
    const text = toText(
      terminalSafeDeep({
        meta,
        messages: [message],
        ...(linked.length > 0 ? { subagents: linked } : {}),
      }),
      { color: this.#color },
    ).slice(this.#headerLength);
    const first = `\n${this.#color ? "\u001b[1m" : ""}#1 `;
    if (!text.startsWith(first)) throw new Error("unreachable: toText starts a message with #1");
    return `${first.slice(0, -3)}#${this.#printed} ${text.slice(first.length)}`;
  }

  /** Subagents no call is known to have spawned: after every message, as the whole view ends. */
  unlinked(meta: Meta, subagents: readonly Subagent[]): string {
    if (subagents.length === 0) return "";
    const text = toText(terminalSafeDeep({ meta, messages: [], subagents: [...subagents] }), {
      color: this.#color,
    });
    return text.slice(this.#headerLength - 1);
  }
}

function subagentTimes(subagents: readonly Subagent[] | undefined): string[] {
  return (subagents ?? []).flatMap((subagent) => [
    ...subagent.messages.map((message) => message.timestamp),
    ...subagentTimes(subagent.subagents),
  ]);
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
  // Subagent lines stamped since then moved the clock too.
  const times = [
    ...(finished === undefined ? [] : [finished.timestamp]),
    ...subagentTimes(snapshot.subagents),
  ].map((time) => Date.parse(time));
  const clock = times.length === 0 ? undefined : Math.max(...times);
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
 * is the same as `toText` of the whole capture, but for one case: when a
 * tool result was written between two parts of one split answer, the first
 * part is already printed, so the later part prints as a message of its own
 * (the whole reader merges it into the first; holding every answer back
 * until the next one begins would hide a running tool's call). Losses are
 * not collected: a view prints none.
 */
export async function liveView(io: Io, head: Buffer, color: boolean): Promise<void> {
  let accumulator = new StreamJsonAccumulator({ startTime: new Date() });
  const printer = new MessagePrinter(color);
  const seen = new Set<string>();
  let meta: Meta | undefined;
  const unlinked: Subagent[] = [];
  const keepUnlinked = (subagents: readonly Subagent[] | undefined) => {
    for (const subagent of subagents ?? [])
      if (subagent.toolUseId === undefined) unlinked.push(subagent);
  };
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
      await write(io.stdout, printer.message(meta, message, snapshot.subagents));
    keepUnlinked(snapshot.subagents);
    accumulator = restart(accumulator, snapshot, record);
  }
  const transcript = accumulator.transcript();
  if (meta === undefined) {
    meta = transcript.meta;
    await write(io.stdout, printer.header(meta));
  }
  for (const message of transcript.messages)
    await write(io.stdout, printer.message(meta, message, transcript.subagents));
  keepUnlinked(transcript.subagents);
  if (unlinked.length > 0) await write(io.stdout, printer.unlinked(meta, unlinked));
}
