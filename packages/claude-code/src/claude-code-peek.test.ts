// The listing's look at a session's head and tail parses only the lines that
// can still add something (claude-code-store.ts). It must say what parsing
// every line says: the reference below does that, written from the store's
// rules in docs/formats/claude-code.md (the session id and cwd of the first
// line that has them; the title is the last custom title, else the last
// summary whose leaf is a uuid of the file, else the last AI title, else the
// first prompt that is not meta and does not start with "<").

import { existsSync, promises as fs, readdirSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Discovered } from "@txcript/core";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { claudeCodeCodec } from "./claude-code-codec.js";
import { ClaudeCodeStore, type Peek, peekClaudeCodeSession } from "./claude-code-store.js";

function reference(texts: readonly string[]): Peek {
  const result: Peek = { recognized: false };
  const uuids = new Set<string>();
  const summaries: { summary: string; leaf: string }[] = [];
  let custom: string | undefined;
  let ai: string | undefined;
  for (const line of texts.flatMap((text) => text.split("\n"))) {
    let value: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) continue;
      value = parsed as Record<string, unknown>;
    } catch {
      continue;
    }
    const own = (key: string) => (Object.hasOwn(value, key) ? value[key] : undefined);
    if (claudeCodeCodec.detect(line)) result.recognized = true;
    if (typeof own("uuid") === "string") uuids.add(own("uuid") as string);
    if (result.sessionId === undefined && typeof own("sessionId") === "string")
      result.sessionId = own("sessionId") as string;
    if (result.cwd === undefined && typeof own("cwd") === "string")
      result.cwd = own("cwd") as string;
    const type = own("type");
    if (type === "custom-title" && typeof own("customTitle") === "string")
      custom = own("customTitle") as string;
    if (type === "ai-title" && typeof own("aiTitle") === "string") ai = own("aiTitle") as string;
    if (type === "summary" && typeof own("summary") === "string")
      if (typeof own("leafUuid") === "string")
        summaries.push({ summary: own("summary") as string, leaf: own("leafUuid") as string });
    const message = own("message") as { content?: unknown } | null | undefined;
    const content = message?.content;
    // A prompt: string content, or the first text of a list without a tool result.
    const blocks = Array.isArray(content)
      ? content.filter((block) => typeof block === "object" && block !== null)
      : [];
    const text =
      typeof content === "string"
        ? content
        : blocks.some((block) => block.type === "tool_result")
          ? undefined
          : blocks.find((block) => block.type === "text" && typeof block.text === "string")?.text;
    if (
      result.prompt === undefined &&
      type === "user" &&
      own("isMeta") !== true &&
      typeof message === "object" &&
      message !== null &&
      typeof text === "string" &&
      !text.startsWith("<")
    ) {
      const flat = text.replace(/\s+/g, " ").trim();
      result.prompt = flat.length > 100 ? `${flat.slice(0, 100)}…` : flat;
    }
  }
  const summary = summaries.findLast((entry) => uuids.has(entry.leaf))?.summary;
  const title = custom ?? summary ?? ai ?? result.prompt;
  if (title !== undefined) result.title = title;
  return result;
}

/** JSON text of `value` with some characters written as \u escapes (still the same JSON). */
function escaped(text: string, every: number): string {
  if (every === 0) return text;
  let out = "";
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (char === "\\") {
      out += char + (text[index + 1] ?? "");
      index += 1;
      continue;
    }
    if (char === '"') inString = !inString;
    out +=
      inString && char !== '"' && /[a-z]/.test(char) && index % every === 0
        ? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`
        : char;
  }
  return out;
}

const ids = fc.constantFrom("u1", "u2", "u3", "u4");
const words = fc.constantFrom("fix the parser", "<command>x</command>", "user title", "", "a\nb");
const contents = fc.oneof(
  words,
  fc.array(
    fc.oneof(
      fc.record({ type: fc.constant("text"), text: words }),
      fc.record({ type: fc.constant("image"), source: fc.constant({ type: "base64" }) }),
      fc.record({ type: fc.constant("tool_result"), tool_use_id: ids, content: words }),
      fc.constant(null),
    ),
    { maxLength: 3 },
  ),
);
const line = fc.oneof(
  fc.record({
    type: fc.constant("user"),
    uuid: ids,
    parentUuid: fc.constant(null),
    sessionId: fc.constantFrom("s1", "s2"),
    cwd: fc.constantFrom("/w/a", "/w/b"),
    isMeta: fc.boolean(),
    message: fc.record({ role: fc.constant("user"), content: contents }),
  }),
  fc.record({
    type: fc.constant("assistant"),
    uuid: ids,
    parentUuid: ids,
    sessionId: fc.constant("s1"),
    message: fc.record({ content: fc.constant([{ type: "text", text: "the user said" }]) }),
  }),
  fc.record({ type: fc.constant("custom-title"), customTitle: words, sessionId: fc.constant("s") }),
  fc.record({ type: fc.constant("ai-title"), aiTitle: words, sessionId: fc.constant("s") }),
  fc.record({
    type: fc.constant("summary"),
    summary: words,
    leafUuid: fc.constantFrom("u1", "zz"),
  }),
  fc.record({ type: fc.constant("file-history-snapshot"), messageId: ids }),
  fc.record({ cwd: fc.constantFrom("/x"), sessionId: fc.constantFrom("s9") }),
);
const text = fc
  .array(
    fc.tuple(line, fc.nat({ max: 3 }), fc.boolean()).map(([value, every, cut]) => {
      const json = escaped(JSON.stringify(value), every === 0 ? 0 : every + 1);
      return cut ? json.slice(0, json.length >> 1) : json;
    }),
    { maxLength: 12 },
  )
  .map((lines) => lines.join("\n"));

describe("peekClaudeCodeSession", () => {
  it("says what parsing every line says, for any head and tail (escapes, cut lines, every title kind)", () => {
    fc.assert(
      fc.property(text, text, (head, tail) => {
        expect(peekClaudeCodeSession([head, tail])).toEqual(reference([head, tail]));
      }),
      lawParameters(2000),
    );
  });

  it("reads an escaped custom title, and a summary only by a leaf of the file", () => {
    const first = JSON.stringify({
      type: "user",
      uuid: "u1",
      parentUuid: null,
      sessionId: "s",
      cwd: "/w",
      message: { role: "user", content: "first prompt" },
    });
    const escapedTitle = '{"type":"custom\\u002dtitle","customTitle":"escaped","sessionId":"s"}';
    expect(peekClaudeCodeSession([`${first}\n${escapedTitle}`]).title).toBe("escaped");
    const summary = (leaf: string) =>
      JSON.stringify({ type: "summary", summary: `on ${leaf}`, leafUuid: leaf });
    expect(peekClaudeCodeSession([`${first}\n${summary("u1")}`]).title).toBe("on u1");
    expect(peekClaudeCodeSession([`${first}\n${summary("u9")}`]).title).toBe("first prompt");
  });
});

describe("ClaudeCodeStore.discover against a full parse", () => {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
  const real = path.join(repoRoot, "../shared/real/claude-code");
  const files = [
    ...readdirSync(path.join(repoRoot, "fixtures/claude-code"))
      .filter((name) => name.endsWith(".jsonl"))
      .map((name) => path.join(repoRoot, "fixtures/claude-code", name)),
    ...(existsSync(real)
      ? readdirSync(real)
          .filter((name) => name.endsWith(".jsonl"))
          .map((name) => path.join(real, name))
      : []),
  ];

  async function listed(text: string): Promise<Discovered[]> {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-claude-peek-"));
    try {
      await fs.mkdir(path.join(root, "-w"));
      await fs.writeFile(path.join(root, "-w", "s.jsonl"), text);
      const found: Discovered[] = [];
      for await (const entry of new ClaudeCodeStore({ root }).discover()) found.push(entry);
      return found;
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  }

  it.each(files)("lists %s with the title and cwd of every line parsed", async (file) => {
    const text = await fs.readFile(file, "utf8");
    const full = reference([text]);
    const [entry] = await listed(text);
    expect(entry === undefined).toBe(!full.recognized);
    expect(entry?.title).toBe(full.title);
    expect(entry?.cwd).toBe(full.cwd);
  });

  it("reads a line across the 64 KiB mark of a file the two ends cover, but not a title between the ends of a longer one (documented bound)", async () => {
    const first = JSON.stringify({
      type: "user",
      uuid: "u1",
      parentUuid: null,
      sessionId: "s",
      cwd: "/w",
      message: { role: "user", content: "first prompt" },
    });
    const pad = (bytes: number) =>
      JSON.stringify({ type: "file-history-snapshot", messageId: "m", pad: "x".repeat(bytes) });
    const titled = JSON.stringify({ type: "custom-title", customTitle: "Named", sessionId: "s" });
    const across = `${first}\n${pad(65_536 - first.length - 60)}\n${titled}\n`;
    expect(across.indexOf(titled)).toBeLessThan(65_536);
    expect(across.indexOf(titled) + titled.length).toBeGreaterThan(65_536);
    expect((await listed(across))[0]?.title).toBe("Named");
    // docs/formats/claude-code.md, "Listing": 64 KiB from each end of a longer file.
    const middle = `${first}\n${pad(70_000)}\n${titled}\n${pad(70_000)}\n`;
    expect(reference([middle]).title).toBe("Named");
    expect((await listed(middle))[0]?.title).toBe("first prompt");
    // Control: near the end it is read.
    expect((await listed(`${first}\n${pad(70_000)}\n${pad(70_000)}\n${titled}\n`))[0]?.title).toBe(
      "Named",
    );
  });
});
