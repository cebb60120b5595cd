// A Claude Code session of a given size for the big-input tests, written
// line by line to a temporary file from the split-messages fixture's user
// and assistant lines (fresh uuids, a parent chain, long texts).
import { createWriteStream, readFileSync } from "node:fs";
import * as path from "node:path";
import { fixturesRoot } from "./parsers.js";

const lines = readFileSync(path.join(fixturesRoot, "claude-code/split-messages.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.startsWith("{"))
  .map((line) => JSON.parse(line));
const userLine = lines.find(
  (line) => line.type === "user" && typeof line.message?.content === "string",
);
const assistantLine = lines.find(
  (line) => line.type === "assistant" && line.message?.content?.[0]?.type === "text",
);

const filler =
  'Lorem ipsum dolor sit amet, ünïcödé 😀 "quoted" \\ back-slashed, consectetur adipiscing elit. ';
const uuid = (index: number) => `b16b16b1-0000-4000-8000-${index.toString(16).padStart(12, "0")}`;

export async function writeBigClaudeSession(file: string, bytes: number): Promise<number> {
  if (!userLine || !assistantLine)
    throw new Error("the fixture lacks a plain user or assistant text line");
  const stream = createWriteStream(file);
  let written = 0;
  for (let index = 0; written < bytes; index += 1) {
    const template = index % 2 === 0 ? userLine : assistantLine;
    const line = structuredClone(template);
    line.uuid = uuid(index);
    line.parentUuid = index === 0 ? null : uuid(index - 1);
    const text = `#${index} ${filler.repeat(40)}`;
    if (index % 2 === 0) line.message.content = text;
    else {
      line.message.id = `msg_${index}`;
      line.message.content = [{ type: "text", text }];
    }
    const serialized = `${JSON.stringify(line)}\n`;
    written += Buffer.byteLength(serialized);
    if (!stream.write(serialized))
      await new Promise<void>((resolve) => stream.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return written;
}
