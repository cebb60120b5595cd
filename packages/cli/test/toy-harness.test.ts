// The registry is the only place a harness is named: a toy harness defined
// in this file alone appears in every command (list, view, convert, export,
// continue with its resume command), in the five laws and the cross-harness
// pairs, with no other file edited. A second toy whose store corrupts what it
// saves shows read-back catching a broken writer and leaving nothing behind,
// and a third whose parser has a bug shows the internal-error exit code.
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import {
  type Codec,
  type Discovered,
  type HarnessDefinition,
  isJsonObject,
  type Loss,
  parseJson,
  type Store,
  type Transcript,
  TxcriptError,
  warn,
  writeFileAtomic,
} from "@txcript/core";
import {
  describeCodecLaws,
  describeCrossHarnessLaws,
  harnessesUnderTest,
  lawRuns,
} from "@txcript/core/testing";
import { defaultRegistry } from "@txcript/harnesses";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compactionLabel } from "../src/continue-plan.js";
import type { Io } from "../src/io.js";
import { main } from "../src/main.js";
import { fixturesRoot } from "./e2e.js";

interface Toy {
  toy: "v1";
  id: string;
  timestamp: string;
  cwd?: string;
  turns: { role: "user" | "assistant"; at: string; texts: string[] }[];
}

const dropped: Loss = {
  code: "toy.dropped",
  kind: "unsupported",
  description: "everything but the texts of messages, the id, the start time and the cwd",
};

function toyCodec(id: string): Codec<Toy> {
  return {
    id,
    displayName: `Toy sessions (${id})`,
    losses: [dropped],
    detect: (text) => text.startsWith('{"toy":"v1"'),
    parse(text) {
      const value = parseJson(text, { harness: id });
      if (!isJsonObject(value) || value.toy !== "v1" || !Array.isArray(value.turns))
        throw new TxcriptError("INVALID_DOCUMENT", "not a toy session", { harness: id });
      if (value.id === "explode") throw new TypeError("a bug in the toy parser");
      return value as unknown as Toy;
    },
    serialize: (toy) => JSON.stringify(toy),
    toCommon: (toy) => ({
      meta: {
        id: toy.id,
        timestamp: toy.timestamp,
        ...(toy.cwd === undefined ? {} : { cwd: toy.cwd }),
      },
      messages: toy.turns.map((turn) => ({
        role: turn.role,
        timestamp: turn.at,
        content: turn.texts.map((text) => ({ type: "text" as const, text })),
      })),
    }),
    fromCommon(transcript, options) {
      const { meta } = transcript;
      let lost = Object.keys(meta).filter(
        (key) => !["id", "timestamp", "cwd"].includes(key),
      ).length;
      if (transcript.subagents !== undefined) lost += 1;
      const turns: Toy["turns"] = [];
      for (const message of transcript.messages) {
        const texts = message.content.flatMap((block) =>
          block.type === "text" ? [block.text] : [],
        );
        lost += message.content.length - texts.length;
        lost += ["model", "stopReason", "usage", "context"].filter((key) => key in message).length;
        if (texts.length > 0) turns.push({ role: message.role, at: message.timestamp, texts });
        else lost += 1;
      }
      if (lost > 0) warn(options, dropped, "something but text was not written", "$", lost);
      return {
        toy: "v1",
        id: meta.id,
        timestamp: meta.timestamp,
        ...(meta.cwd === undefined ? {} : { cwd: meta.cwd }),
        turns,
      };
    },
  };
}

/** What the toy keeps, written from its format (above), not from its writer. */
function toyProject(transcript: Transcript): Transcript {
  const { id, timestamp, cwd } = transcript.meta;
  return {
    meta: { id, timestamp, ...(cwd === undefined ? {} : { cwd }) },
    messages: transcript.messages
      .map((message) => ({
        role: message.role,
        timestamp: message.timestamp,
        content: message.content.filter((block) => block.type === "text"),
      }))
      .filter((message) => message.content.length > 0),
  };
}

class ToyStore implements Store<Toy> {
  readonly harness: string;
  readonly root: string;
  readonly #corrupt: boolean;
  constructor(harness: string, root: string, corrupt = false) {
    this.harness = harness;
    this.root = root;
    this.#corrupt = corrupt;
  }
  async *discover(): AsyncIterable<Discovered> {
    const names = await fs.readdir(this.root).catch(() => [] as string[]);
    for (const name of names.filter((entry) => entry.endsWith(".toy.json")).sort()) {
      const file = path.join(this.root, name);
      const toy = JSON.parse(await fs.readFile(file, "utf8")) as Toy;
      yield {
        harness: this.harness,
        id: toy.id,
        path: file,
        ...(toy.cwd === undefined ? {} : { cwd: toy.cwd }),
        updatedAt: (await fs.stat(file)).mtime.toISOString(),
        messageCount: toy.turns.length,
      };
    }
  }
  async load(id: string): Promise<Toy> {
    return JSON.parse(await fs.readFile(path.join(this.root, `${id}.toy.json`), "utf8")) as Toy;
  }
  async save(toy: Toy, options: { overwrite?: boolean } = {}) {
    await fs.mkdir(this.root, { recursive: true });
    const file = path.join(this.root, `${toy.id}.toy.json`);
    const kept = this.#corrupt ? { ...toy, turns: toy.turns.slice(0, -1) } : toy;
    await writeFileAtomic(file, JSON.stringify(kept), { overwrite: options.overwrite === true });
    return { id: toy.id, path: file };
  }
  async delete(id: string): Promise<void> {
    await fs.rm(path.join(this.root, `${id}.toy.json`), { force: true });
  }
}

function toyHarness(id: string, corrupt = false): HarnessDefinition<Toy> {
  return {
    id,
    displayName: `Toy session (${id})`,
    aliases: [`${id}-agent`],
    extension: ".toy.json",
    codec: toyCodec(id),
    project: toyProject,
    environment: [["TOY_HOME", "where toy sessions live"]],
    store: (environment, root) =>
      new ToyStore(id, root ?? path.join(environment.TOY_HOME ?? "/nonexistent", id), corrupt),
    resumeCommand: (session) => [`${id}-agent`, "resume", session],
  };
}

const toy = toyHarness("toy");
const brokenToy = toyHarness("brokentoy", true);
const registry = defaultRegistry.with(toy, brokenToy);

describeCodecLaws({ codec: toy.codec, project: toy.project, numRuns: lawRuns(200) });
describeCrossHarnessLaws(harnessesUnderTest(registry.harnesses), {
  numRuns: lawRuns(100),
  pairs: (from, to) => from.label === "toy" || to.label === "toy",
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let root: string;
let io: Io;

async function run(...args: string[]): Promise<Run> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk) => {
    out += chunk;
  });
  stderr.on("data", (chunk) => {
    err += chunk;
  });
  const code = await main(args, { ...io, stdout, stderr }, "0.0.0-test", { registry });
  return { code, stdout: out, stderr: err };
}

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(tmpdir(), "txcript-toy-"));
  const home = path.join(root, "home");
  await fs.mkdir(home, { recursive: true });
  io = {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    env: {
      HOME: home,
      TOY_HOME: path.join(root, "toys"),
      XDG_DATA_HOME: path.join(root, "data"),
      CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
      PATH: process.env.PATH ?? "/usr/bin:/bin",
    },
    cwd: root,
  };
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe("a harness defined only in a test", () => {
  const amp = path.join(fixturesRoot, "amp", "legacy-thread.json");

  it("is named in the help, by id and alias, with its environment and resume command", async () => {
    const help = await run("--help");
    expect(help.stdout).toMatch(/^ {2}toy +Toy session \(toy\) \(also: toy-agent\)$/m);
    expect(help.stdout).toContain("TOY_HOME");
    expect(help.stdout).toContain("TXCRIPT_TOY_RESUME_CMD");
  });

  it("converts to and from it, and is detected", async () => {
    const out = path.join(root, "a.toy.json");
    const to = await run("convert", amp, "--to", "toy-agent", "-o", out);
    expect(to.code, to.stderr).toBe(0);
    expect(to.stderr).toContain("[toy.dropped]");
    const back = await run("convert", out, "--to", "common");
    expect(back.code, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout).format).toBe("txcript.common/v2");
    const view = await run("view", out);
    expect(view.code, view.stderr).toBe(0);
    expect(view.stdout).toMatch(/^#1 user /m);
  });

  it("continues into it with its resume command, then lists, views and exports it from its store", async () => {
    const continued = await run("continue", amp, "--with", "toy", "--no-resume", "--json");
    expect(continued.code, continued.stderr).toBe(0);
    const result = JSON.parse(continued.stdout);
    expect(result.resumeCommand.slice(0, 2)).toEqual(["toy-agent", "resume"]);
    const id = result.outputs[0].sessionId as string;
    const list = await run("list", "--from", "toy", "--json");
    expect(JSON.parse(list.stdout).map((entry: { id: string }) => entry.id)).toEqual([id]);
    const view = await run("view", id);
    expect(view.code, view.stderr).toBe(0);
    const exported = await run("export", id);
    expect(JSON.parse(exported.stdout).meta.id).toBe(id);
  });

  it("continues from the last compaction by default, and replays everything with --full", async () => {
    const at = "2026-01-01T00:00:00.000Z";
    const text = (role: "user" | "assistant", value: string) => ({
      role,
      timestamp: at,
      content: [{ type: "text", text: value }],
    });
    const file = path.join(root, "compacted.common.json");
    await fs.writeFile(
      file,
      JSON.stringify({
        format: "txcript.common/v2",
        meta: { id: "compacted", timestamp: at },
        messages: [
          text("user", "old question"),
          text("assistant", "old answer"),
          {
            role: "user",
            timestamp: at,
            content: [{ type: "compaction", summary: "we talked", trigger: "auto" }],
          },
          text("user", "first after"),
          {
            role: "user",
            timestamp: at,
            content: [{ type: "compaction", summary: "again", trigger: "manual" }],
          },
          text("user", "new question"),
          text("assistant", "new answer"),
        ],
      }),
    );
    const texts = async (args: string[]) => {
      const result = await run(
        "continue",
        file,
        "--with",
        "toy",
        "--no-resume",
        "--json",
        "--force",
        ...args,
      );
      expect(result.code, result.stderr).toBe(0);
      const id = JSON.parse(result.stdout).outputs[0].sessionId as string;
      const exported = JSON.parse((await run("export", id)).stdout) as Transcript;
      return exported.messages.map((message) =>
        message.content.map((block) => (block as { text: string }).text).join("\n"),
      );
    };
    const [note, ...rest] = await texts([]);
    expect(rest).toEqual(["new question", "new answer"]);
    expect(note).toMatch(
      /^\[txcript\] Parts of this conversation were left out .*4 messages before the last compaction.*\.txcript\/compacted\/: transcript\.common\.json/,
    );
    const archived = JSON.parse(
      await fs.readFile(path.join(root, ".txcript", "compacted", "transcript.common.json"), "utf8"),
    );
    expect(archived.messages).toHaveLength(7);
    expect(
      await fs.readFile(path.join(root, ".txcript", "compacted", "index.md"), "utf8"),
    ).toContain("messages #1-4: before the last compaction");
    // --full: every message, each compaction marker as a label and its summary in plain text.
    const label = compactionLabel;
    expect(await texts(["--full"])).toEqual([
      "old question",
      "old answer",
      `${label}\nwe talked`,
      "first after",
      `${label}\nagain`,
      "new question",
      "new answer",
    ]);
  });

  it("fits a long session into --budget, archives what was cut, and refuses a budget nothing fits", async () => {
    const at = "2026-01-01T00:00:00.000Z";
    const messages = Array.from({ length: 40 }, (_, index) => ({
      role: index % 2 ? "assistant" : "user",
      timestamp: at,
      content: [
        {
          type: "text",
          text: `${index % 2 ? "answer" : "question"} ${index} ${"words ".repeat(60)}`,
        },
      ],
    }));
    const file = path.join(root, "long.common.json");
    await fs.writeFile(
      file,
      JSON.stringify({
        format: "txcript.common/v2",
        meta: { id: "long", timestamp: at },
        messages,
      }),
    );
    const result = await run("continue", file, "--with", "toy", "--no-resume", "--budget", "1000");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /fitted into a budget of 1000 tokens \(an estimate of 4 characters a token\): \d+ → \d+ tokens, \d+ cuts/,
    );
    const exported = JSON.parse((await run("export", "long")).stdout) as Transcript;
    expect(exported.messages.length).toBeLessThan(40);
    expect(exported.messages.at(-1)?.content[0]).toMatchObject({
      text: expect.stringMatching(/^answer 39 /),
    });
    const index = await fs.readFile(path.join(root, ".txcript", "long", "index.md"), "utf8");
    expect(index).toMatch(/- message #1: whole turn left out \(\d+ tokens\)/);
    const tiny = await run(
      "continue",
      file,
      "--with",
      "toy",
      "--no-resume",
      "--force",
      "--budget",
      "10",
    );
    expect(tiny.code).toBe(1);
    expect(tiny.stderr).toMatch(/does not fit a budget of 10 tokens even with only its last turn/);
  });

  it("read-back catches a writer that loses a message and leaves nothing behind (exit 70)", async () => {
    const broken = await run("continue", amp, "--with", "brokentoy", "--no-resume");
    expect(broken.code).toBe(70);
    expect(broken.stderr).toMatch(
      /does not read back as the conversation: block \d+ of \d+: expected .* read back nothing; it was removed/,
    );
    expect(await fs.readdir(path.join(root, "toys", "brokentoy"))).toEqual([]);
  });

  it("a continue that fails its read-back removes the archive it made, and keeps one made before", async () => {
    const at = "2026-01-01T00:00:00.000Z";
    const text = (role: "user" | "assistant", words: string) => ({
      role,
      timestamp: at,
      content: [{ type: "text", text: words }],
    });
    const file = path.join(root, "archived.common.json");
    await fs.writeFile(
      file,
      JSON.stringify({
        format: "txcript.common/v2",
        meta: { id: "archived", timestamp: at },
        messages: [
          text("user", "old question"),
          text("assistant", "old answer"),
          {
            role: "user",
            timestamp: at,
            content: [{ type: "compaction", summary: "we talked", trigger: "auto" }],
          },
          text("user", "new question"),
          text("assistant", "new answer"),
        ],
      }),
    );
    const archive = path.join(root, ".txcript", "archived");
    await fs.rm(archive, { recursive: true, force: true });
    const broken = await run("continue", file, "--with", "brokentoy", "--no-resume");
    expect(broken.code).toBe(70);
    expect(broken.stderr).toContain(`what was left out is archived in ${archive}`);
    expect(broken.stderr).toMatch(/does not read back as the conversation/);
    await expect(fs.stat(archive)).rejects.toThrow(/ENOENT/);
    // Control: an archive an earlier continue made (a session may point at it) is left alone.
    const good = await run("continue", file, "--with", "toy", "--no-resume", "--force");
    expect(good.code, good.stderr).toBe(0);
    expect((await fs.readdir(archive)).sort()).toEqual(["index.md", "transcript.common.json"]);
    const again = await run("continue", file, "--with", "brokentoy", "--no-resume");
    expect(again.code).toBe(70);
    expect((await fs.readdir(archive)).sort()).toEqual(["index.md", "transcript.common.json"]);
  });

  it("a bug in a codec is an internal error (exit 70), bad input is 1, usage is 2", async () => {
    const bug = path.join(root, "bug.toy.json");
    await fs.writeFile(
      bug,
      JSON.stringify({
        toy: "v1",
        id: "explode",
        timestamp: "2026-01-01T00:00:00.000Z",
        turns: [],
      }),
    );
    const internal = await run("view", bug);
    expect(internal.code).toBe(70);
    expect(internal.stderr).toMatch(
      /^txcript: internal error: a bug in the toy parser \(rerun with --debug/,
    );
    const bad = path.join(root, "bad.toy.json");
    await fs.writeFile(bad, '{"toy":"v1", "turns": 1}');
    expect((await run("view", bad, "--from", "toy")).code).toBe(1);
    const usage = await run("convert", bad, "--to", "toyy");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("did you mean toy?");
  });
});
