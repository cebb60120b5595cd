// `txcript view -` on a stream-json pipe: prints each message as soon as the
// next one starts (the last may still grow: Claude Code splits one answer
// over several lines), so `amp -x … --stream-json | txcript view -` reads
// along while the agent runs. Memory is bounded by the longest line.
import type { Readable } from "node:stream";
import { type Transcript, toText, type Warning, WarningCollector } from "@txcript/core";
import { readStreamJsonLines, StreamJsonAccumulator } from "@txcript/stream-json";
import { type Io, write } from "./io.js";

/** The stdin chunks, with what was already read to sniff the format put back in front. */
async function* prepend(head: Buffer, rest: Readable): AsyncGenerator<Uint8Array> {
  if (head.length > 0) yield head;
  for await (const chunk of rest) yield chunk as Uint8Array;
}

/** Read stdin up to its first newline (or its end), to sniff the format. */
export async function readFirstLine(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
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
    if (chunk.includes(10)) break;
  }
  return Buffer.concat(chunks);
}

export async function liveView(
  io: Io,
  head: Buffer,
  color: boolean,
): Promise<{ transcript: Transcript; warnings: Warning[] }> {
  const collector = new WarningCollector();
  const accumulator = new StreamJsonAccumulator({
    startTime: new Date(),
    onWarning: collector.add,
  });
  let printed = 0;
  let header: string | undefined;
  const flush = async (snapshot: Transcript, upTo: number) => {
    if (header === undefined) {
      header = toText(snapshot, { color, range: { from: 1, to: 0 } });
      await write(io.stdout, header);
    }
    for (; printed < upTo; ) {
      printed += 1;
      const text = toText(snapshot, { color, range: { from: printed, to: printed } });
      const own = toText(snapshot, { color, range: { from: 1, to: 0 } });
      await write(io.stdout, text.slice(own.length));
    }
  };
  for await (const record of readStreamJsonLines(prepend(head, io.stdin), {
    file: "<stdin>",
    onWarning: collector.add,
  })) {
    accumulator.push({ value: record.value, line: record.line });
    const snapshot = accumulator.snapshot();
    if (snapshot !== undefined && snapshot.messages.length > 1)
      await flush(snapshot, snapshot.messages.length - 1);
  }
  const transcript = accumulator.transcript();
  await flush(transcript, transcript.messages.length);
  return { transcript, warnings: collector.warnings };
}
