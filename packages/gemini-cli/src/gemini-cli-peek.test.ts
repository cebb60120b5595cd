// The listing's bounded peek of a JSONL recording (GeminiCliStore.discover:
// a 64 KiB head and tail, parsing only lines that can change the entry)
// against the codec's full parse (geminiCliCodec.parse, then replay: the
// merged metadata and the messages in order), on generated recordings, the
// JSONL fixture and the real capture in ../shared/real/gemini. The listing
// shows the summary, else the first resumable user prompt; its time is
// lastUpdated; its cwd the first of `directories` (no project registry here).

import { existsSync, promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { type Discovered, type Json, type JsonObject, timestampMillis } from "@txcript/core";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { geminiCliCodec } from "./gemini-cli-codec.js";
import { headBytes, isResumableRecord, renderContent } from "./gemini-cli-peek.js";
import { replay } from "./gemini-cli-records.js";
import { GeminiCliStore } from "./gemini-cli-store.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

let temporary: string;
beforeEach(async () => {
  temporary = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-gemini-peek-"));
});
afterEach(async () => {
  await fs.rm(temporary, { recursive: true, force: true });
});

interface Entry {
  id?: string;
  title?: string;
  updatedAt?: string;
  cwd?: string;
}

/** The entry a full parse gives: replay's metadata and its first resumable user message. */
function fullParseAnswer(text: string): Entry {
  const { metadata, messages } = replay(geminiCliCodec.parse(text));
  const answer: Entry = {};
  if (typeof metadata.sessionId === "string") answer.id = metadata.sessionId;
  const first = messages.find(
    ({ record }) => record.type === "user" && isResumableRecord(record as JsonObject),
  );
  const prompt =
    first === undefined
      ? undefined
      : renderContent(first.record.content as Json)
          .replace(/\s+/g, " ")
          .trim();
  const title =
    typeof metadata.summary === "string"
      ? metadata.summary
      : prompt === undefined
        ? undefined
        : prompt.length > 100
          ? `${prompt.slice(0, 100)}…`
          : prompt;
  if (title !== undefined) answer.title = title;
  const updated = timestampMillis(metadata.lastUpdated);
  if (Number.isFinite(updated)) answer.updatedAt = new Date(updated).toISOString();
  const directories = metadata.directories;
  if (Array.isArray(directories) && typeof directories[0] === "string") answer.cwd = directories[0];
  return answer;
}

/** JSON text of `value` with the letters of its strings (keys too) written as \u escapes. */
function escapedJson(value: unknown): string {
  return JSON.stringify(value).replace(/"(?:[^"\\]|\\.)*"/g, (token) =>
    token.replace(/(\\.)|([a-zA-Z_$])/g, (all, escaped: string | undefined) =>
      escaped !== undefined ? all : `\\u${all.charCodeAt(0).toString(16).padStart(4, "0")}`,
    ),
  );
}

const word = fc.constantFrom("fix", "user", "sessionId", "$set", "the", "/cmd", " ", "\n", "é");
const text = fc.array(word, { maxLength: 6 }).map((words) => words.join(""));
const minute = fc.integer({ min: 0, max: 59 });
const record = fc.oneof(
  fc.record({
    kind: fc.constant("user" as const),
    content: fc.oneof(text, fc.array(fc.record({ text }), { maxLength: 2 })),
  }),
  fc.record({ kind: fc.constant("gemini" as const), content: text }),
  fc.record({
    kind: fc.constant("set" as const),
    minute,
    summary: fc.option(text, { nil: undefined, freq: 1 }),
  }),
  // Filler that pushes the file past a head and tail of 64 KiB each in some runs.
  fc.record({ kind: fc.constant("info" as const), filler: fc.integer({ min: 0, max: 40_000 }) }),
);
const recording = fc.record({
  records: fc.array(fc.record({ record, escaped: fc.boolean() }), { maxLength: 12 }),
  summary: fc.option(text, { nil: undefined, freq: 1 }),
});
type Recording = typeof recording extends fc.Arbitrary<infer T> ? T : never;

const sessionId = "2d9ea14f-1e4e-44f6-8bf5-7a7819cb1cd9";
function recordingText(generated: Recording): string {
  const lines = [
    JSON.stringify({
      sessionId,
      projectHash: "0".repeat(64),
      startTime: "2026-05-10T14:00:00.000Z",
      lastUpdated: "2026-05-10T14:00:00.000Z",
      kind: "main",
      directories: ["/home/me/app"],
      ...(generated.summary === undefined ? {} : { summary: generated.summary }),
    }),
  ];
  for (const [index, { record: item, escaped }] of generated.records.entries()) {
    const at = { id: `m${index}`, timestamp: "2026-05-10T14:00:01.000Z" };
    const value =
      item.kind === "set"
        ? {
            $set: {
              lastUpdated: `2026-05-10T14:${String(item.minute).padStart(2, "0")}:00.000Z`,
              ...(item.summary === undefined ? {} : { summary: item.summary }),
            },
          }
        : item.kind === "info"
          ? { ...at, type: "info", content: "x".repeat(item.filler) }
          : { ...at, type: item.kind, content: item.content };
    lines.push(escaped ? escapedJson(value) : JSON.stringify(value));
  }
  return `${lines.join("\n")}\n`;
}

async function listOne(text: string): Promise<Discovered | undefined> {
  const root = path.join(temporary, `g${Math.random().toString(36).slice(2)}`);
  const chats = path.join(root, "tmp", "project", "chats");
  await fs.mkdir(chats, { recursive: true });
  await fs.writeFile(path.join(chats, "session-2026-05-10T14-00-2d9ea14f.jsonl"), text);
  const found: Discovered[] = [];
  for await (const item of new GeminiCliStore({ root }).discover()) found.push(item);
  await fs.rm(root, { recursive: true });
  return found[0];
}

function entryOf(found: Discovered | undefined): Entry {
  if (found === undefined) return {};
  const { id, title, updatedAt, cwd } = found;
  return {
    id,
    updatedAt,
    ...(title === undefined ? {} : { title }),
    ...(cwd === undefined ? {} : { cwd }),
  };
}

describe("the Gemini CLI listing's peek against a full parse", () => {
  it("lists what the codec's full parse says, for every recording the two ends cover", async () => {
    await fc.assert(
      fc.asyncProperty(recording, async (generated) => {
        const text = recordingText(generated);
        fc.pre(Buffer.byteLength(text) <= 2 * headBytes);
        expect(entryOf(await listOne(text))).toEqual(fullParseAnswer(text));
      }),
      lawParameters(120),
    );
  });

  it("reads $set, metadata and prompts spelled with \\u escapes (the filter's control)", async () => {
    const head = recordingText({ records: [], summary: undefined });
    const prompt = escapedJson({ id: "m1", type: "user", content: "hi" });
    const set = escapedJson({ $set: { lastUpdated: "2026-05-10T15:00:00.000Z", summary: "S" } });
    expect(await listOne(`${head}${prompt}\n`)).toMatchObject({ title: "hi" });
    expect(await listOne(`${head}${prompt}\n${set}\n`)).toMatchObject({
      title: "S",
      updatedAt: "2026-05-10T15:00:00.000Z",
    });
    expect(fullParseAnswer(`${head}${prompt}\n${set}\n`).title).toBe("S");
  });

  it("does not see a $set past the head and before the tail of a longer file (documented bound)", async () => {
    // docs/formats/gemini-cli.md, "Listing": records more than 64 KiB from both ends are not read.
    const head = recordingText({ records: [], summary: undefined });
    const filler = (id: string) =>
      JSON.stringify({ id, type: "info", content: "x".repeat(headBytes) });
    const set = JSON.stringify({ $set: { summary: "Middle" } });
    const text = `${head}${filler("a")}\n${set}\n${filler("b")}\n`;
    expect(fullParseAnswer(text).title).toBe("Middle");
    expect((await listOne(text))?.title).toBeUndefined();
    // Control: near the end it is read.
    expect((await listOne(`${head}${filler("a")}\n${filler("b")}\n${set}\n`))?.title).toBe(
      "Middle",
    );
  });

  const files = [
    path.join(repoRoot, "fixtures/gemini-cli/jsonl-records.jsonl"),
    path.join(repoRoot, "../shared/real/gemini/jsonl-2026-04-23-VibeCodingTracker.jsonl"),
  ].filter((file) => existsSync(file));
  it.each(files)("lists %s as the full parse does", async (file) => {
    const text = await fs.readFile(file, "utf8");
    const answer = fullParseAnswer(text);
    expect(answer.id).toBeDefined();
    const found = entryOf(await listOne(text));
    expect(found).toEqual(answer);
  });
});
