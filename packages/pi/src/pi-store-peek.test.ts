// The listing's bounded peek (PiStore.discover: a 64 KiB head and tail,
// parsing only lines that can change the title) against the answer of a
// full parse of every line, on generated sessions, pi's fixtures and the
// real captures in ../shared/real/pi. The rule the full parse applies is
// the one docs/formats/pi.md gives for the listing: the latest
// `session_info` name (a blank one clears it), else the first user text.

import { existsSync, promises as fs, readdirSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Discovered } from "@txcript/core";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PiStore } from "./pi-store.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const headBytes = 65_536;

let temporary: string;
beforeEach(async () => {
  temporary = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-pi-peek-"));
});
afterEach(async () => {
  await fs.rm(temporary, { recursive: true, force: true });
});

type Loose = Record<string, unknown>;

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 100 ? `${flat.slice(0, 100)}…` : flat;
}

/** What the listing should show, from every line of the file parsed. */
function fullParseAnswer(text: string): { id?: string; cwd?: string; title?: string } {
  const entries: Loose[] = [];
  for (const line of text.split("\n")) {
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === "object" && value !== null && !Array.isArray(value))
        entries.push(value as Loose);
    } catch {
      // Not a line pi reads.
    }
  }
  const header = entries[0];
  if (header?.type !== "session" || typeof header.id !== "string") return {};
  let name: string | undefined;
  let prompt: string | undefined;
  for (const entry of entries.slice(1)) {
    if (entry.type === "session_info")
      name =
        typeof entry.name === "string" && entry.name.trim() !== "" ? entry.name.trim() : undefined;
    const message = entry.message as Loose | undefined;
    if (prompt !== undefined || entry.type !== "message" || typeof message !== "object") continue;
    if (message === null || message.role !== "user") continue;
    const { content } = message;
    const text =
      typeof content === "string"
        ? content
        : Array.isArray(content)
          ? content
              .filter((block) => (block as Loose | null)?.type === "text")
              .map((block) => String((block as Loose).text ?? ""))
              .join(" ")
          : "";
    if (text.trim() !== "") prompt = oneLine(text);
  }
  const answer: { id?: string; cwd?: string; title?: string } = { id: header.id };
  if (typeof header.cwd === "string") answer.cwd = header.cwd;
  const title = name ?? prompt;
  if (title !== undefined) answer.title = title;
  return answer;
}

/** JSON text of `value` with the letters of its strings (keys too) written as \u escapes. */
function escapedJson(value: unknown): string {
  return JSON.stringify(value).replace(/"(?:[^"\\]|\\.)*"/g, (token) =>
    token.replace(/(\\.)|([a-z_])/g, (all, escaped: string | undefined) =>
      escaped !== undefined ? all : `\\u${all.charCodeAt(0).toString(16).padStart(4, "0")}`,
    ),
  );
}

const word = fc.constantFrom("fix", "user", "session_info", "the", "parser", " ", "\n", "é");
const text = fc.array(word, { maxLength: 8 }).map((words) => words.join(""));
const entry = fc.oneof(
  fc.record({ role: fc.constant("user"), content: fc.oneof(text, fc.constant([])) }),
  fc.record({
    role: fc.constant("user"),
    content: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant("text"), text }),
        fc.record({ type: fc.constant("image"), data: fc.constant("AAAA") }),
      ),
      { maxLength: 3 },
    ),
  }),
  fc.record({
    role: fc.constant("assistant"),
    content: fc.constant([{ type: "text", text: "ok" }]),
  }),
  fc.record({ info: fc.oneof(text, fc.constant("  ")) }),
  // Filler that pushes the file past a head and tail of 64 KiB each in some runs.
  fc.record({ filler: fc.integer({ min: 0, max: 40_000 }) }),
);
type Entry = typeof entry extends fc.Arbitrary<infer T> ? T : never;
const session = fc.record({
  entries: fc.array(fc.record({ entry, escaped: fc.boolean() }), { maxLength: 12 }),
  cwd: fc.constantFrom("/home/me/app", "/tmp/other"),
});

function sessionText(generated: {
  entries: { entry: Entry; escaped: boolean }[];
  cwd: string;
}): string {
  const lines = [
    JSON.stringify({
      type: "session",
      version: 3,
      id: "019a0000-0000-7000-8000-000000000001",
      timestamp: "2026-05-01T12:00:00.000Z",
      cwd: generated.cwd,
    }),
  ];
  for (const [index, { entry: item, escaped }] of generated.entries.entries()) {
    const at = { id: `e${index}`, timestamp: "2026-05-01T12:00:01.000Z" };
    const value =
      "info" in item
        ? { type: "session_info", ...at, name: item.info }
        : "filler" in item
          ? { type: "custom", ...at, customType: "x", data: "x".repeat(item.filler) }
          : { type: "message", ...at, message: item };
    lines.push(escaped ? escapedJson(value) : JSON.stringify(value));
  }
  return `${lines.join("\n")}\n`;
}

async function listOne(text: string): Promise<Discovered | undefined> {
  const root = path.join(temporary, `s${Math.random().toString(36).slice(2)}`);
  await fs.mkdir(root);
  await fs.writeFile(path.join(root, "one.jsonl"), text);
  const found: Discovered[] = [];
  for await (const item of new PiStore({ root, flat: true }).discover()) found.push(item);
  await fs.rm(root, { recursive: true });
  return found[0];
}

function entryOf(found: Discovered | undefined): { id?: string; cwd?: string; title?: string } {
  if (found === undefined) return {};
  const { id, cwd, title } = found;
  return { id, ...(cwd === undefined ? {} : { cwd }), ...(title === undefined ? {} : { title }) };
}

describe("the pi listing's peek against a full parse", () => {
  it("lists what a full parse of every line says, for every session the two ends cover", async () => {
    await fc.assert(
      fc.asyncProperty(session, async (generated) => {
        const text = sessionText(generated);
        fc.pre(Buffer.byteLength(text) <= 2 * headBytes);
        expect(entryOf(await listOne(text))).toEqual(fullParseAnswer(text));
      }),
      lawParameters(120),
    );
  });

  it("reads a session_info or a prompt spelled with \\u escapes (the filter's control)", async () => {
    const header = sessionText({ entries: [], cwd: "/a" });
    const prompt = escapedJson({ type: "message", message: { role: "user", content: "hi" } });
    const named = escapedJson({ type: "session_info", name: "Named" });
    expect((await listOne(`${header}${prompt}\n`))?.title).toBe("hi");
    expect((await listOne(`${header}${prompt}\n${named}\n`))?.title).toBe("Named");
    expect(fullParseAnswer(`${header}${prompt}\n${named}\n`).title).toBe("Named");
  });

  it("reads a line that straddles the 64 KiB mark of a file the two ends cover", async () => {
    const header = sessionText({ entries: [], cwd: "/a" });
    const pad = JSON.stringify({ type: "custom", data: "x".repeat(headBytes - 200) });
    const named = JSON.stringify({ type: "session_info", name: "Across", data: "y".repeat(400) });
    const text = `${header}${pad}\n${named}\n`;
    expect(Buffer.byteLength(`${header}${pad}\n`)).toBeLessThan(headBytes);
    expect(Buffer.byteLength(text)).toBeGreaterThan(headBytes);
    expect((await listOne(text))?.title).toBe("Across");
  });

  it("does not see a title past the head and before the tail of a longer file (documented bound)", async () => {
    // docs/formats/pi.md, "Listing": a session_info more than 64 KiB from both ends is not read.
    const header = sessionText({ entries: [], cwd: "/a" });
    const prompt = JSON.stringify({ type: "message", message: { role: "user", content: "first" } });
    const pad = JSON.stringify({ type: "custom", data: "x".repeat(headBytes) });
    const named = JSON.stringify({ type: "session_info", name: "Middle" });
    const text = `${header}${prompt}\n${pad}\n${named}\n${pad}\n`;
    expect(fullParseAnswer(text).title).toBe("Middle");
    expect((await listOne(text))?.title).toBe("first");
    // Control: near the end it is read.
    expect((await listOne(`${header}${prompt}\n${pad}\n${pad}\n${named}\n`))?.title).toBe("Middle");
  });

  const files = [
    ...readdirSync(path.join(repoRoot, "fixtures/pi"))
      .filter((name) => name.endsWith(".jsonl"))
      .map((name) => path.join(repoRoot, "fixtures/pi", name)),
    ...(existsSync(path.join(repoRoot, "../shared/real/pi"))
      ? readdirSync(path.join(repoRoot, "../shared/real/pi"))
          .filter((name) => name.endsWith(".jsonl"))
          .map((name) => path.join(repoRoot, "../shared/real/pi", name))
      : []),
  ];
  it.each(files)("lists %s as a full parse does", async (file) => {
    const text = await fs.readFile(file, "utf8");
    const answer = fullParseAnswer(text);
    expect(answer.id).toBeDefined();
    expect(entryOf(await listOne(text))).toEqual(answer);
  });
});
