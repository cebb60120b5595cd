// The listing's bounded peek (CopilotCliStore.discover: a 256 KiB head,
// parsing only lines that can change the entry) against a full parse of the
// whole log (copilotCliCodec.parse, every event), on generated logs and the
// real fixtures. The rule the full parse applies is the listing's, from
// docs/formats/copilot-cli.md: id and cwd from the first session.start, the
// title from the last session.title_changed, else the first line of the
// first user.message.

import { promises as fs, readdirSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Discovered, JsonObject } from "@txcript/core";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { copilotCliCodec } from "./copilot-cli-codec.js";
import { CopilotCliStore } from "./copilot-cli-store.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const headBytes = 256 * 1024;

let temporary: string;
beforeEach(async () => {
  temporary = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-copilot-peek-"));
});
afterEach(async () => {
  await fs.rm(temporary, { recursive: true, force: true });
});

interface Entry {
  id?: string;
  cwd?: string;
  title?: string;
}

const object = (value: unknown): JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};

/** The entry a full parse of every event gives. */
function fullParseAnswer(text: string): Entry {
  const events = copilotCliCodec
    .parse(text)
    .lines.flatMap((line) => (line.value === undefined ? [] : [line.value]));
  const answer: Entry = {};
  const start = events.find(
    (event) => event.type === "session.start" && typeof object(event.data).sessionId === "string",
  );
  if (start !== undefined) {
    answer.id = object(start.data).sessionId as string;
    const cwd = object(object(start.data).context).cwd;
    if (typeof cwd === "string") answer.cwd = cwd;
  }
  const named = events.findLast(
    (event) =>
      event.type === "session.title_changed" && typeof object(event.data).title === "string",
  );
  const prompt = events.find(
    (event) => event.type === "user.message" && typeof object(event.data).content === "string",
  );
  const title =
    named !== undefined
      ? (object(named.data).title as string)
      : prompt === undefined
        ? undefined
        : (object(prompt.data).content as string).trim().split("\n")[0]?.slice(0, 200);
  if (title !== undefined && title !== "") answer.title = title;
  return answer;
}

/** JSON text of `value` with the letters of its strings (keys too) written as \u escapes. */
function escapedJson(value: unknown): string {
  return JSON.stringify(value).replace(/"(?:[^"\\]|\\.)*"/g, (token) =>
    token.replace(/(\\.)|([a-zA-Z_.])/g, (all, escaped: string | undefined) =>
      escaped !== undefined ? all : `\\u${all.charCodeAt(0).toString(16).padStart(4, "0")}`,
    ),
  );
}

const id = "5a1f0e2d-3c4b-4a69-8877-66554433aa11";
const word = fc.constantFrom("fix", "user.message", "_changed", "the", " ", "\n", "é");
const text = fc.array(word, { maxLength: 6 }).map((words) => words.join(""));
const event = fc.oneof(
  fc.record({ kind: fc.constant("prompt" as const), content: text }),
  fc.record({ kind: fc.constant("title" as const), title: text }),
  fc.record({ kind: fc.constant("answer" as const), content: text }),
  // Filler that pushes the log past the 256 KiB head in some runs.
  fc.record({ kind: fc.constant("filler" as const), size: fc.integer({ min: 0, max: 60_000 }) }),
);
const log = fc.array(fc.record({ event, escaped: fc.boolean() }), { maxLength: 10 });
type Log = typeof log extends fc.Arbitrary<infer T> ? T : never;

function logText(events: Log): string {
  const lines = [
    JSON.stringify({
      type: "session.start",
      data: { sessionId: id, version: 1, context: { cwd: "/work/project" } },
      id: "e0",
      timestamp: "2026-12-06T12:10:48.752Z",
      parentId: null,
    }),
  ];
  for (const [index, { event: item, escaped }] of events.entries()) {
    const at = { id: `e${index + 1}`, timestamp: "2026-12-06T12:10:49.000Z", parentId: "e0" };
    const value =
      item.kind === "prompt"
        ? { type: "user.message", data: { content: item.content }, ...at }
        : item.kind === "title"
          ? { type: "session.title_changed", data: { title: item.title }, ...at }
          : item.kind === "answer"
            ? { type: "assistant.message", data: { content: item.content }, ...at }
            : { type: "session.info", data: { message: "x".repeat(item.size) }, ...at };
    lines.push(escaped ? escapedJson(value) : JSON.stringify(value));
  }
  return `${lines.join("\n")}\n`;
}

async function listOne(text: string): Promise<Discovered | undefined> {
  const root = path.join(temporary, `c${Math.random().toString(36).slice(2)}`);
  const directory = path.join(root, "session-state", id);
  await fs.mkdir(directory, { recursive: true });
  await fs.writeFile(path.join(directory, "events.jsonl"), text);
  const found: Discovered[] = [];
  for await (const item of new CopilotCliStore({ root }).discover()) found.push(item);
  await fs.rm(root, { recursive: true });
  return found[0];
}

function entryOf(found: Discovered | undefined): Entry {
  if (found === undefined) return {};
  const { id: listed, cwd, title } = found;
  return {
    id: listed,
    ...(cwd === undefined ? {} : { cwd }),
    ...(title === undefined ? {} : { title }),
  };
}

describe("the Copilot CLI listing's peek against a full parse", () => {
  it("lists what a full parse of every event says, for every log the head covers", async () => {
    await fc.assert(
      fc.asyncProperty(log, async (events) => {
        const text = logText(events);
        fc.pre(Buffer.byteLength(text) <= headBytes);
        expect(entryOf(await listOne(text))).toEqual(fullParseAnswer(text));
      }),
      lawParameters(80),
    );
  });

  it("reads a title or a prompt spelled with \\u escapes (the filter's control)", async () => {
    const start = logText([]);
    const prompt = escapedJson({ type: "user.message", data: { content: "hi" } });
    const named = escapedJson({ type: "session.title_changed", data: { title: "Named" } });
    expect((await listOne(`${start}${prompt}\n`))?.title).toBe("hi");
    expect((await listOne(`${start}${prompt}\n${named}\n`))?.title).toBe("Named");
    expect(fullParseAnswer(`${start}${prompt}\n${named}\n`).title).toBe("Named");
  });

  it("does not see a title past the 256 KiB head (documented bound)", async () => {
    // docs/formats/copilot-cli.md, "The store": only the head of a log is read.
    const start = logText([{ event: { kind: "prompt", content: "first" }, escaped: false }]);
    const filler = JSON.stringify({
      type: "session.info",
      data: { message: "x".repeat(headBytes) },
    });
    const named = JSON.stringify({ type: "session.title_changed", data: { title: "Late" } });
    expect(fullParseAnswer(`${start}${filler}\n${named}\n`).title).toBe("Late");
    expect((await listOne(`${start}${filler}\n${named}\n`))?.title).toBe("first");
    // Control: within the head it is read.
    expect((await listOne(`${start}${named}\n${filler}\n`))?.title).toBe("Late");
  });

  const files = readdirSync(path.join(repoRoot, "fixtures/copilot-cli"))
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => path.join(repoRoot, "fixtures/copilot-cli", name));
  it.each(files)("lists %s as a full parse does", async (file) => {
    const text = await fs.readFile(file, "utf8");
    const answer = fullParseAnswer(text);
    expect(answer.id).toBeDefined();
    // The fixture is filed under its own session id, as Copilot CLI files it.
    const root = path.join(temporary, "fixture");
    const directory = path.join(root, "session-state", answer.id as string);
    await fs.mkdir(directory, { recursive: true });
    await fs.writeFile(path.join(directory, "events.jsonl"), text);
    const found: Discovered[] = [];
    for await (const item of new CopilotCliStore({ root }).discover()) found.push(item);
    expect(entryOf(found[0])).toEqual(answer);
  });
});
