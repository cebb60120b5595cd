// Gemini CLI finds what we write: the pinned `gemini` (scripts/real-programs.mjs)
// lists and resumes copies of recordings the store saved — from every
// fixture's Common document (Amp, Claude Code, stream-json, Codex, pi), the
// real captures and generated transcripts — fully offline. Found and loaded,
// a resume fails on the connection with our session id and leaves an error
// report whose `context` is the request history: ours, whole. With retention
// on, our files survive the startup cleanup that deletes a stale control.
import { existsSync, promises as fs, readFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Transcript } from "@txcript/core";
import type { AnyCodec } from "@txcript/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { geminiCliCodec } from "./gemini-cli-codec.js";
import { GeminiCliStore } from "./gemini-cli-store.js";
import { historyEntries, transcriptEntries } from "./test-support/history.js";
import {
  errorReportContext,
  fixtureTranscripts,
  geminiBin,
  geminiVersion,
  generatedTranscripts,
  jsonReport,
  type NamedTranscript,
  realDirectory,
  runGemini,
  writeSettings,
} from "./test-support/interop.js";

/** Another harness's codec, imported by a name TypeScript does not follow (its source may be mid-change). */
async function codecOf(packageName: string, exportName: string): Promise<AnyCodec> {
  // A harness this package does not depend on (pi depends on this one: no cycle) is read from its source.
  const source = new URL(`../../${packageName.split("/")[1]}/src/index.ts`, import.meta.url).href;
  const module = (await import(packageName).catch(() => import(source))) as Record<
    string,
    AnyCodec
  >;
  const codec = module[exportName];
  if (codec === undefined) throw new Error(`${packageName} has no ${exportName}`);
  return codec;
}

async function realTranscripts(): Promise<NamedTranscript[]> {
  const out: NamedTranscript[] = [];
  for (const name of [
    "json-2025-10-11-VibeCodingTracker.json",
    "jsonl-2026-04-23-VibeCodingTracker.jsonl",
  ]) {
    try {
      const text = readFileSync(path.join(realDirectory, "gemini", name), "utf8");
      out.push({
        name: `real/gemini/${name}`,
        transcript: geminiCliCodec.toCommon(geminiCliCodec.parse(text)),
      });
    } catch (error) {
      console.warn(`SKIPPED real/gemini/${name}: ${String(error).slice(0, 160)}`);
    }
  }
  // One real capture of every other harness, through its own codec.
  const others: [string, string, string][] = [
    ["amp", "ampCodec", "amp-export-convo.json"],
    ["claude-code", "claudeCodeCodec", "claude-code/fasthooks-main-2.0.76.jsonl"],
    [
      "codex",
      "codexCodec",
      "codex/rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl",
    ],
    ["pi", "piCodec", "pi/2026-03-18T00-14-13-969Z_a5cd40eb-3081-4252-b0a0-00079cf37752.jsonl"],
    ["opencode", "opencodeCodec", "opencode/export-1.2.20-codectx.json"],
  ];
  for (const [packageName, exportName, file] of others) {
    try {
      const codec = await codecOf(["@txcript", packageName].join("/"), exportName);
      const text = readFileSync(path.join(realDirectory, file), "utf8");
      out.push({ name: `real/${file}`, transcript: codec.toCommon(codec.parse(text)) });
    } catch (error) {
      console.warn(`SKIPPED real/${file}: ${String(error).slice(0, 160)}`);
    }
  }
  return out;
}

const sessions: NamedTranscript[] = [
  ...fixtureTranscripts(["amp", "claude-code", "stream-json", "codex", "pi", "opencode"]),
  ...(await realTranscripts()),
  ...generatedTranscripts(4),
];

const found = geminiBin();
const skip = "skip" in found ? found.skip : undefined;
const bin = "bin" in found ? found.bin : "gemini";
if (skip !== undefined) console.warn(`SKIPPED Gemini CLI real-program checks: ${skip}`);

let temporary: string;
let project: string;
const written = new Map<string, { id: string; file: string; transcript: Transcript }>();
/** Sessions a resume above ran on (their files now hold what Gemini CLI appended). */
const resumed = new Set<string>();

async function copyHome(label: string, retention: boolean): Promise<string> {
  const home = path.join(temporary, label);
  await fs.cp(path.join(temporary, "written"), home, { recursive: true });
  writeSettings(home, retention);
  return home;
}

beforeAll(async () => {
  temporary = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-gemini-"));
  project = path.join(temporary, "project");
  await fs.mkdir(project, { recursive: true });
  const store = new GeminiCliStore({ root: path.join(temporary, "written", ".gemini") });
  const ids = new Set<string>();
  for (const { name, transcript } of sessions) {
    // Two fixtures may share a session id; a project holds one session per id.
    let id = transcript.meta.id;
    while (ids.has(id)) id = `${id}-again`;
    ids.add(id);
    // The recorded cwd does not exist here: the session moves to one that does, as `continue` does.
    const moved: Transcript = { ...transcript, meta: { ...transcript.meta, id, cwd: project } };
    const session = geminiCliCodec.fromCommon(moved);
    try {
      const saved = await store.save(session);
      written.set(name, { id: saved.id, file: saved.path, transcript: moved });
    } catch (error) {
      // Only a recording Gemini would delete (nothing resumable) may be refused, and it is named here.
      console.warn(`not written: ${name}: ${String(error).slice(0, 200)}`);
    }
  }
}, 120_000);

afterAll(async () => {
  await fs.rm(temporary, { recursive: true, force: true });
});

describe.skipIf(skip !== undefined)(
  `gemini ${geminiVersion} --list-sessions lists what the store saved`,
  () => {
    it("lists every written session in the project", () => {
      expect(written.size).toBe(sessions.length);
      const sources = [...written.keys()].map((name) => name.split("/")[0]);
      const expected = ["amp", "claude-code", "stream-json", "generated #1"];
      // The real recordings are there only where ../shared is (they skip, with a warning, without it).
      if (existsSync(realDirectory)) expected.push("real");
      for (const source of expected) expect(sources).toContain(source);
      return copyHome("list", false).then((home) => {
        const run = runGemini(
          bin,
          home,
          project,
          ["--list-sessions"],
          path.join(temporary, "list-tmp"),
        );
        expect(run.status).toBe(0);
        for (const { id } of written.values()) expect(run.stdout).toContain(`[${id}]`);
      });
    });
    it("lists nothing in another project directory (the control)", async () => {
      const home = await copyHome("list-elsewhere", false);
      const elsewhere = path.join(temporary, "elsewhere");
      await fs.mkdir(elsewhere, { recursive: true });
      const run = runGemini(
        bin,
        home,
        elsewhere,
        ["--list-sessions"],
        path.join(temporary, "elsewhere-tmp"),
      );
      expect(run.output).toContain("No previous sessions found");
    });
  },
);

describe.skipIf(skip !== undefined)(
  `gemini ${geminiVersion} -p continue --resume <id> loads the whole history`,
  () => {
    let home: string;
    beforeAll(async () => {
      // Retention off for the resumes themselves: each failed offline resume leaves a stray
      // `session-<now>-<id8>.jsonl` holding only Gemini's session context, and with retention on
      // the next start deletes it and, by the shared -<id8> suffix, the session's own file —
      // Gemini CLI does this to its own recordings too (docs/formats/gemini-cli.md). The retention
      // check below runs on the files as the store wrote them.
      home = await copyHome("resume", false);
    });
    for (const { name } of sessions) {
      it(`resumes ${name}`, (context) => {
        const session = written.get(name);
        if (session === undefined) {
          context.skip(`${name} was not written (nothing Gemini CLI could resume)`);
          return;
        }
        const tmpdir = path.join(
          temporary,
          "resume-tmp",
          String([...written.keys()].indexOf(name)),
        );
        const run = runGemini(
          bin,
          home,
          project,
          ["-p", "continue", "--resume", session.id, "-o", "json", "--skip-trust"],
          tmpdir,
        );
        expect(run.output).not.toContain("Invalid session identifier");
        expect(run.status).toBe(1);
        const report = jsonReport(run);
        expect(report?.session_id).toBe(session.id);
        expect(report?.error?.message).toMatch(/fetch failed/);
        const sent = errorReportContext(tmpdir);
        expect(sent, "no sendMessageStream error report").toBeDefined();
        const entries = historyEntries(sent ?? []);
        expect(entries.at(-1)).toBe("user text continue");
        expect(entries.slice(0, -1)).toEqual(transcriptEntries(session.transcript));
        resumed.add(name);
      });
    }
    it("files Gemini CLI rewrote on resume read byte-exact and still hold our history", async () => {
      const first = written.values().next().value as { file: string };
      const directory = path.join(
        home,
        path.relative(path.join(temporary, "written"), path.dirname(first.file)),
      );
      const names = (await fs.readdir(directory)).filter((entry) => entry.endsWith(".jsonl"));
      expect(resumed.size).toBeGreaterThan(0);
      // Each resume also leaves a stray `session-<now>-<id8>.jsonl` (the next cleanup deletes it).
      expect(names.length).toBeGreaterThan(written.size);
      for (const name of resumed) {
        const { file, id } = written.get(name) as { file: string; id: string };
        const text = await fs.readFile(path.join(directory, path.basename(file)), "utf8");
        expect(geminiCliCodec.serialize(geminiCliCodec.parse(text))).toBe(text);
        const before = geminiCliCodec.toCommon(
          geminiCliCodec.parse(await fs.readFile(file, "utf8")),
        );
        const after = geminiCliCodec.toCommon(geminiCliCodec.parse(text));
        expect(after.meta.id).toBe(id);
        // Gemini CLI checkpoints its own session context first, then our history; the failed turn is rolled back.
        const [injected, ...rest] = after.messages;
        expect(injected?.context).toEqual({ kind: "injected", source: "session_context" });
        // It keeps what it sends (messages it never sends, such as empty ones, drop out of its checkpoint).
        expect(transcriptEntries({ ...after, messages: rest })).toEqual(transcriptEntries(before));
      }
      for (const name of names) {
        const text = await fs.readFile(path.join(directory, name), "utf8");
        expect(geminiCliCodec.serialize(geminiCliCodec.parse(text))).toBe(text);
      }
    });
  },
);

describe.skipIf(skip !== undefined)("the checks fail where they should (controls)", () => {
  it("an unknown session id exits 42 with Invalid session identifier", async () => {
    const home = await copyHome("control-unknown", false);
    const run = runGemini(
      bin,
      home,
      project,
      [
        "-p",
        "continue",
        "--resume",
        "00000000-0000-4000-8000-000000000000",
        "-o",
        "json",
        "--skip-trust",
      ],
      path.join(temporary, "control-unknown-tmp"),
    );
    expect(run.status).toBe(42);
    expect(run.output).toContain("Invalid session identifier");
  });
  it("a recording without its metadata line is not found", async () => {
    const home = await copyHome("control-broken", false);
    const [first] = written.values();
    if (first === undefined) throw new Error("nothing was written");
    const file = path.join(home, path.relative(path.join(temporary, "written"), first.file));
    const text = await fs.readFile(file, "utf8");
    await fs.writeFile(file, text.slice(text.indexOf("\n") + 1));
    const run = runGemini(
      bin,
      home,
      project,
      ["-p", "continue", "--resume", first.id, "-o", "json", "--skip-trust"],
      path.join(temporary, "control-broken-tmp"),
    );
    expect(run.status).toBe(42);
    expect(run.output).toContain("Invalid session identifier");
  });
  it("the history comparison tells a changed history apart", () => {
    const [first] = written.values();
    if (first === undefined) throw new Error("nothing was written");
    const entries = transcriptEntries(first.transcript);
    const changed: Transcript = {
      ...first.transcript,
      messages: [
        ...first.transcript.messages,
        {
          role: "user",
          timestamp: first.transcript.meta.timestamp,
          content: [{ type: "text", text: "extra" }],
        },
      ],
    };
    expect(transcriptEntries(changed)).not.toEqual(entries);
  });
});

describe.skipIf(skip !== undefined)(
  "with sessionRetention on, Gemini CLI's cleanup keeps our files",
  () => {
    it("deletes a stale control and keeps every file the store wrote", async () => {
      const home = await copyHome("retention", true);
      const [first] = written.values();
      if (first === undefined) throw new Error("nothing was written");
      const file = path.join(home, path.relative(path.join(temporary, "written"), first.file));
      const chats = path.dirname(file);
      const stale = path.join(chats, "session-2026-01-01T00-00-33333333.jsonl");
      const text = await fs.readFile(file, "utf8");
      await fs.writeFile(
        stale,
        text
          .replace(first.id, "33333333-3333-4333-8333-333333333333")
          .replace(/"lastUpdated":"[^"]*"/, '"lastUpdated":"2026-01-01T00:00:00.000Z"'),
      );
      const exists = (target: string) =>
        fs.stat(target).then(
          () => true,
          () => false,
        );
      // The cleanup runs at start, fire-and-forget: give it up to two starts to reach the control.
      for (let attempt = 0; attempt < 2 && (await exists(stale)); attempt += 1)
        runGemini(
          bin,
          home,
          project,
          ["--list-sessions"],
          path.join(temporary, `retention-tmp-${attempt}`),
        );
      expect(await exists(stale)).toBe(false);
      for (const session of written.values())
        expect(
          await exists(
            path.join(home, path.relative(path.join(temporary, "written"), session.file)),
          ),
        ).toBe(true);
    });
  },
);
