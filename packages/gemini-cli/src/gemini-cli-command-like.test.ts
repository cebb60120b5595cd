// A user text that starts with `/` or `?` (a prompt like "??? what are you
// doing", a path) is written behind a zero-width space part
// (gemini_cli.command-like): Gemini CLI leaves a user record whose trimmed
// text starts with either out of the history it sends on resume. The unit
// tests read the written record; the pinned Gemini CLI, offline, then sends
// the text, and the control (the same file without that part) does not.
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Transcript, Warning } from "@txcript/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandShield } from "./common-to-gemini-cli.js";
import { geminiCliCodec } from "./gemini-cli-codec.js";
import { GeminiCliStore } from "./gemini-cli-store.js";
import { historyEntries } from "./test-support/history.js";
import {
  errorReportContext,
  geminiBin,
  geminiVersion,
  runGemini,
  writeSettings,
} from "./test-support/interop.js";

const at = "2026-04-23T12:00:00.000Z";
const question = "??? what are you doing, use the existing ssh key";
const transcript: Transcript = {
  meta: { id: "command-like-test", timestamp: at, cwd: "/tmp/command-like" },
  messages: [
    { role: "user", content: [{ type: "text", text: "set up the server" }], timestamp: at },
    { role: "assistant", content: [{ type: "text", text: "Making a new key." }], timestamp: at },
    { role: "user", content: [{ type: "text", text: question }], timestamp: at },
    { role: "assistant", content: [{ type: "text", text: "Using it." }], timestamp: at },
    { role: "user", content: [{ type: "text", text: "  /etc/hosts is wrong" }], timestamp: at },
  ],
};

/** The content of each user record written. */
function userContents(source: Transcript, warnings: Warning[] = []): unknown[] {
  const session = geminiCliCodec.fromCommon(source, {
    onWarning: (warning) => warnings.push(warning),
  });
  return geminiCliCodec
    .serialize(session)
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line))
    .filter((record) => record.type === "user")
    .map((record) => record.content);
}

describe("gemini_cli.command-like", () => {
  it("puts a zero-width space part before a user text starting with / or ?, with a warning", () => {
    const warnings: Warning[] = [];
    expect(userContents(transcript, warnings)).toEqual([
      [{ text: "set up the server" }],
      [{ text: commandShield }, { text: question }],
      [{ text: commandShield }, { text: "  /etc/hosts is wrong" }],
    ]);
    expect(warnings.filter((warning) => warning.code === "gemini_cli.command-like")).toHaveLength(
      2,
    );
    // The part is no whitespace to JavaScript's trim, which Gemini CLI's check uses.
    expect(`${commandShield}${question}`.trim().startsWith("?")).toBe(false);
  });

  it("reads back with the zero-width space block first", () => {
    const session = geminiCliCodec.fromCommon(transcript);
    const read = geminiCliCodec.toCommon(geminiCliCodec.parse(geminiCliCodec.serialize(session)));
    expect(read.messages[2]?.content).toEqual([
      { type: "text", text: commandShield },
      { type: "text", text: question },
    ]);
  });
});

const found = geminiBin();
const skip = "skip" in found ? found.skip : undefined;
const bin = "bin" in found ? found.bin : "gemini";
if (skip !== undefined) console.warn(`SKIPPED gemini_cli.command-like real program: ${skip}`);

let temporary: string;
beforeAll(async () => {
  temporary = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-gemini-command-like-"));
});
afterAll(async () => {
  if (temporary !== undefined) await fs.rm(temporary, { recursive: true, force: true });
});

/** Save the transcript, let `edit` change the file, resume it offline and return the texts sent. */
async function sentTexts(label: string, edit: (text: string) => string): Promise<string[]> {
  const home = path.join(temporary, label);
  const project = path.join(home, "project");
  await fs.mkdir(project, { recursive: true });
  writeSettings(home, false);
  const store = new GeminiCliStore({ root: path.join(home, ".gemini") });
  const moved = { ...transcript, meta: { ...transcript.meta, cwd: project } };
  const saved = await store.save(geminiCliCodec.fromCommon(moved));
  await fs.writeFile(saved.path, edit(await fs.readFile(saved.path, "utf8")));
  const tmpdir = path.join(home, "tmp");
  const run = runGemini(
    bin,
    home,
    project,
    ["-p", "continue", "--resume", saved.id, "-o", "json", "--skip-trust"],
    tmpdir,
  );
  expect(run.output).not.toContain("Invalid session identifier");
  const sent = errorReportContext(tmpdir);
  expect(sent, "no sendMessageStream error report").toBeDefined();
  return historyEntries(sent ?? []);
}

describe.skipIf(skip !== undefined)(
  `gemini ${geminiVersion} sends user texts starting with / or ?`,
  () => {
    it("both texts are in the history it sends", async () => {
      const entries = await sentTexts("ours", (text) => text);
      expect(entries).toContain(`user text ${question}`);
      expect(entries).toContain("user text   /etc/hosts is wrong");
    }, 120_000);

    it("control: without the zero-width space part, neither is sent", async () => {
      const shield = JSON.stringify({ text: commandShield });
      const entries = await sentTexts("control", (text) => text.replaceAll(`${shield},`, ""));
      expect(entries).toContain("user text set up the server");
      expect(entries.some((entry) => entry.includes(question))).toBe(false);
      expect(entries.some((entry) => entry.includes("/etc/hosts"))).toBe(false);
    }, 120_000);
  },
);
