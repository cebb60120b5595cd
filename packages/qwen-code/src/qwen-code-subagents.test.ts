// Qwen Code 0.24.4 subagent transcripts (docs/formats/qwen-code.md,
// "Subagents"): read from the real recording in fixtures/qwen-code/subagent,
// written where 0.24.4 keeps them, and kept through the store by a
// round-trip law over generated transcripts — each with a control that
// fails without the work.
import { promises as fs, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Transcript, Warning } from "@txcript/core";
import { oddShapesArbitrary, transcriptArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { qwenCodeCodec } from "./qwen-code-codec.js";
import { qwenCodeHarness } from "./qwen-code-harness.js";
import { qwenProjectDirName } from "./qwen-code-paths.js";
import { qwenCodeProject, qwenCodeStoreProject } from "./qwen-code-project.js";
import type { QwenCodeSession } from "./qwen-code-schema.js";
import { QwenCodeStore } from "./qwen-code-store.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const fixtureRoot = path.join(repoRoot, "fixtures/qwen-code/subagent");
const sessionId = "65e85728-5d51-4b93-a94c-d5f2f77c9721";
const sessionFile = path.join(fixtureRoot, "projects/-tmp-qwork-p/chats", `${sessionId}.jsonl`);
const agentDirectory = path.join(fixtureRoot, "projects/-tmp-qwork-p/subagents", sessionId);

const roots: string[] = [];
function tempRoot(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "txcript-qwen-sub-"));
  roots.push(root);
  return root;
}
afterAll(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function collecting(): { warnings: Warning[]; onWarning: (warning: Warning) => void } {
  const warnings: Warning[] = [];
  return { warnings, onWarning: (warning) => warnings.push(warning) };
}

describe("the real 0.24.4 recording (fixtures/qwen-code/subagent)", () => {
  it("loads the session with its agent's transcript, linked to the agent call its meta names", async () => {
    const store = new QwenCodeStore({ root: fixtureRoot });
    const { warnings, onWarning } = collecting();
    const transcript = qwenCodeCodec.toCommon(await store.load(sessionId), { onWarning });
    expect(transcript.subagents).toEqual([
      {
        id: "general-purpose-call_agent_1",
        toolUseId: "call_agent_1",
        agentType: "general-purpose",
        title: "look at notes",
        model: "stub-model",
        messages: [
          {
            role: "user",
            content: [{ type: "text", text: "Read /tmp/qwork/p/notes.txt and say what it holds." }],
            timestamp: "2026-12-06T20:15:35.271Z",
          },
          {
            role: "assistant",
            content: [{ type: "text", text: "It holds hello notes." }],
            timestamp: "2026-12-06T20:15:38.118Z",
            usage: {
              inputTokens: 100,
              outputTokens: 5,
              cacheReadInputTokens: 0,
              cacheCreationInputTokens: 0,
            },
          },
        ],
      },
    ]);
    // The link is to the main conversation's `agent` call.
    const call = transcript.messages
      .flatMap((message) => message.content)
      .find((block) => block.type === "tool_use" && block.id === "call_agent_1");
    // (Qwen Code's `agent` tool is Common's canonical Task.)
    expect(call).toMatchObject({ type: "tool_use", tool: { name: "Task" } });
    // The meta's run state (status, times, CLI flags) is a named loss.
    expect(warnings.map((warning) => warning.code)).toContain("qwen_code.subagent-meta");
  });

  it("loading the file by its path (the CLI's road) finds the same agents; the control: parsed alone it has none", async () => {
    const loaded = await qwenCodeHarness.loadFile?.(sessionFile, { environment: {} });
    const byStore = await new QwenCodeStore({ root: fixtureRoot }).load(sessionId);
    expect(loaded).toEqual(byStore);
    expect(loaded?.subagents?.map((file) => file.agentId)).toEqual([
      "general-purpose-call_agent_1",
    ]);
    const alone = qwenCodeCodec.toCommon(
      qwenCodeCodec.parse(readFileSync(sessionFile, "utf8"), { file: sessionFile }),
    );
    expect(alone.subagents).toBeUndefined();
  });

  it("an archived session (chats/archive/<id>.jsonl) loads with the agents Qwen Code leaves in place", async () => {
    const root = tempRoot();
    await fs.cp(fixtureRoot, root, { recursive: true });
    const chats = path.join(root, "projects/-tmp-qwork-p/chats");
    await fs.mkdir(path.join(chats, "archive"));
    const archived = path.join(chats, "archive", `${sessionId}.jsonl`);
    await fs.rename(path.join(chats, `${sessionId}.jsonl`), archived);
    const loaded = await qwenCodeHarness.loadFile?.(archived, { environment: {} });
    expect(loaded?.subagents?.map((file) => file.agentId)).toEqual([
      "general-purpose-call_agent_1",
    ]);
    // The control: an archive/ directory that is not inside chats/ is not a session's place.
    const elsewhere = path.join(root, "archive", `${sessionId}.jsonl`);
    await fs.mkdir(path.dirname(elsewhere));
    await fs.copyFile(archived, elsewhere);
    expect((await qwenCodeHarness.loadFile?.(elsewhere, { environment: {} }))?.subagents).toBe(
      undefined,
    );
  });

  it("a lone copy (not in a chats/ directory) reads alone; an agent file names its session file", async () => {
    const lone = path.join(tempRoot(), `${sessionId}.jsonl`);
    await fs.copyFile(sessionFile, lone);
    const loaded = await qwenCodeHarness.loadFile?.(lone, { environment: {} });
    expect(loaded?.subagents).toBeUndefined();
    const agentFile = path.join(agentDirectory, "agent-general-purpose-call_agent_1.jsonl");
    expect(await qwenCodeHarness.sideFileOf?.(agentFile)).toBe(sessionFile);
    expect(await qwenCodeHarness.sideFileOf?.(agentFile.replace(/\.jsonl$/, ".meta.json"))).toBe(
      sessionFile,
    );
    expect(await qwenCodeHarness.sideFileOf?.(sessionFile)).toBeUndefined();
  });

  it("saved again into another store, it lands where 0.24.4 looks and loads back the same", async () => {
    const source = await new QwenCodeStore({ root: fixtureRoot }).load(sessionId);
    const root = tempRoot();
    const saved = await new QwenCodeStore({ root }).save(source);
    expect(saved.path).toBe(path.join(root, "projects/-tmp-qwork-p/chats", `${sessionId}.jsonl`));
    const agents = path.join(root, "projects/-tmp-qwork-p/subagents", sessionId);
    expect((await fs.readdir(agents)).sort()).toEqual([
      "agent-general-purpose-call_agent_1.jsonl",
      "agent-general-purpose-call_agent_1.meta.json",
    ]);
    // The transcript byte for byte; the meta as the same object.
    expect(
      await fs.readFile(path.join(agents, "agent-general-purpose-call_agent_1.jsonl"), "utf8"),
    ).toBe(
      readFileSync(path.join(agentDirectory, "agent-general-purpose-call_agent_1.jsonl"), "utf8"),
    );
    expect(
      JSON.parse(
        await fs.readFile(
          path.join(agents, "agent-general-purpose-call_agent_1.meta.json"),
          "utf8",
        ),
      ),
    ).toEqual(
      JSON.parse(
        readFileSync(
          path.join(agentDirectory, "agent-general-purpose-call_agent_1.meta.json"),
          "utf8",
        ),
      ),
    );
    expect(await new QwenCodeStore({ root }).load(sessionId)).toEqual(source);
  });
});

/** A transcript with a linked subagent holding a nested one, and one with an id Qwen Code cannot name a file by. */
const withAgents: Transcript = {
  meta: {
    id: "11111111-2222-4333-8444-555555555555",
    timestamp: "2026-03-01T10:00:00.000Z",
    cwd: "/work/p",
  },
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "split it" }],
      timestamp: "2026-03-01T10:00:00.000Z",
    },
    {
      role: "assistant",
      content: [
        {
          type: "tool_use",
          id: "call_a",
          tool: { name: "Task", input: { description: "a", prompt: "do a" } },
        },
      ],
      timestamp: "2026-03-01T10:00:01.000Z",
    },
  ],
  subagents: [
    {
      id: "worker-a",
      toolUseId: "call_a",
      agentType: "general-purpose",
      title: "part a",
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "do a" }],
          timestamp: "2026-03-01T10:00:02.000Z",
        },
        {
          role: "assistant",
          content: [
            {
              type: "tool_use",
              id: "call_n",
              tool: { name: "Task", input: { description: "n", prompt: "deeper" } },
            },
          ],
          timestamp: "2026-03-01T10:00:03.000Z",
        },
      ],
      subagents: [
        {
          id: "worker-a-nested",
          toolUseId: "call_n",
          messages: [
            {
              role: "assistant",
              content: [{ type: "text", text: "deep done" }],
              timestamp: "2026-03-01T10:00:04.000Z",
            },
          ],
        },
      ],
    },
    {
      id: "agent with spaces/and slashes",
      messages: [
        {
          role: "assistant",
          content: [{ type: "text", text: "loose" }],
          timestamp: "2026-03-01T10:00:00.500Z",
        },
      ],
    },
  ],
};

describe("deleting a session with its agents", () => {
  it("removes the agents' files and their directory; another session's agents stay", async () => {
    const root = tempRoot();
    const store = new QwenCodeStore({ root });
    const saved = await store.save(qwenCodeCodec.fromCommon(withAgents));
    const otherId = "99999999-2222-4333-8444-555555555555";
    const other = await store.save(
      qwenCodeCodec.fromCommon({ ...withAgents, meta: { ...withAgents.meta, id: otherId } }),
    );
    const agents = path.join(root, "projects", qwenProjectDirName("/work/p"), "subagents");
    // Control: the agents were written, and load reads them.
    expect((await fs.readdir(path.join(agents, saved.id))).length).toBe(6);
    expect((await store.load(saved.id)).subagents).toHaveLength(3);
    await store.delete(saved.id);
    await expect(fs.readdir(path.join(agents, saved.id))).rejects.toMatchObject({
      code: "ENOENT",
    });
    await expect(store.load(saved.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await fs.readdir(path.join(agents, other.id))).length).toBe(6);
    expect((await store.load(other.id)).subagents).toHaveLength(3);
  });

  it("leaves a file in the agents' directory that is not an agent's, and the directory with it", async () => {
    const root = tempRoot();
    const store = new QwenCodeStore({ root });
    const saved = await store.save(qwenCodeCodec.fromCommon(withAgents));
    const directory = path.join(
      root,
      "projects",
      qwenProjectDirName("/work/p"),
      "subagents",
      saved.id,
    );
    await fs.writeFile(path.join(directory, "notes.txt"), "mine");
    await store.delete(saved.id);
    expect(await fs.readdir(directory)).toEqual(["notes.txt"]);
  });
});

describe("writing subagents where Qwen Code 0.24.4 keeps them", () => {
  it("one transcript and meta file per agent in subagents/<session id>/, nested ones by parentAgentId", async () => {
    const root = tempRoot();
    const { warnings, onWarning } = collecting();
    const native = qwenCodeCodec.fromCommon(withAgents, { forStore: true, onWarning });
    await new QwenCodeStore({ root }).save(native);
    const agents = path.join(root, "projects", qwenProjectDirName("/work/p"), "subagents");
    const names = (await fs.readdir(path.join(agents, withAgents.meta.id))).sort();
    const replaced = native.subagents?.[2]?.agentId as string;
    expect(replaced).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(names).toEqual(
      [
        "agent-worker-a.jsonl",
        "agent-worker-a.meta.json",
        "agent-worker-a-nested.jsonl",
        "agent-worker-a-nested.meta.json",
        `agent-${replaced}.jsonl`,
        `agent-${replaced}.meta.json`,
      ].sort(),
    );
    const meta = (name: string) =>
      JSON.parse(readFileSync(path.join(agents, withAgents.meta.id, name), "utf8"));
    expect(meta("agent-worker-a.meta.json")).toMatchObject({
      agentId: "worker-a",
      agentType: "general-purpose",
      description: "part a",
      parentSessionId: withAgents.meta.id,
      toolUseId: "call_a",
      parentAgentId: null,
      status: "completed",
      isBackgrounded: false,
      depth: 0,
    });
    expect(meta("agent-worker-a-nested.meta.json")).toMatchObject({
      parentAgentId: "worker-a",
      toolUseId: "call_n",
      depth: 1,
    });
    // Every record of an agent's transcript names the session and the agent, as Qwen Code's do.
    const records = readFileSync(
      path.join(agents, withAgents.meta.id, "agent-worker-a.jsonl"),
      "utf8",
    )
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    for (const record of records)
      expect(record).toMatchObject({
        sessionId: withAgents.meta.id,
        agentId: "worker-a",
        isSidechain: true,
        cwd: "/work/p",
      });
    // The replaced id is named; the subagents themselves are saved, so no loss is reported for them.
    expect(warnings.map((warning) => warning.code)).toEqual(["qwen_code.subagent-id"]);
    // Loaded back: ids, links, nesting and order as the format page says.
    const back = qwenCodeCodec.toCommon(await new QwenCodeStore({ root }).load(withAgents.meta.id));
    expect(back).toEqual(qwenCodeStoreProject(withAgents));
    expect(back.subagents?.map((subagent) => subagent.id)).toEqual(["worker-a", replaced]);
    expect(back.subagents?.[0]?.subagents?.[0]).toMatchObject({
      id: "worker-a-nested",
      toolUseId: "call_n",
    });
  });

  it("refuses to write over a stored session (and writes none of its agents) unless asked", async () => {
    const root = tempRoot();
    const store = new QwenCodeStore({ root });
    const native = qwenCodeCodec.fromCommon(withAgents);
    await store.save({ lines: native.lines, finalNewline: native.finalNewline });
    await expect(store.save(native)).rejects.toMatchObject({ code: "CONFLICT" });
    const agents = path.join(root, "projects", qwenProjectDirName("/work/p"), "subagents");
    await expect(fs.readdir(agents)).rejects.toMatchObject({ code: "ENOENT" });
    await store.save(native, { overwrite: true });
    expect(await fs.readdir(path.join(agents, withAgents.meta.id))).toHaveLength(6);
  });
});

/** Save `transcript` written by fromCommon for a store save into a fresh store and load it back. */
async function throughStore(
  transcript: Transcript,
  save: (store: QwenCodeStore, native: QwenCodeSession) => Promise<{ id: string }> = (
    store,
    native,
  ) => store.save(native, { cwd: "/work/generated" }),
): Promise<{ back: Transcript; warnings: Warning[] }> {
  const { warnings, onWarning } = collecting();
  const store = new QwenCodeStore({ root: tempRoot() });
  const native = qwenCodeCodec.fromCommon(transcript, { forStore: true, onWarning });
  const { id } = await save(store, native);
  const back = qwenCodeCodec.toCommon(await store.load(id));
  return { back, warnings };
}

/** Whether the store can save it at all (an empty session is an empty file, which names no session). */
const savable = (transcript: Transcript) => {
  const projected = qwenCodeProject(transcript);
  return projected.messages.length > 0 || projected.meta.title !== undefined;
};

const withSubagents = transcriptArbitrary().filter(
  (transcript) => savable(transcript) && (transcript.subagents?.length ?? 0) > 0,
);

describe("law: store.load(store.save(fromCommon(c))) = qwenCodeStoreProject(c)", () => {
  const parameters = lawParameters(40);
  for (const [shape, generator] of [
    ["generated transcripts with subagents", withSubagents],
    ["odd shapes", oddShapesArbitrary().filter(savable)],
  ] as const)
    it(`holds for ${shape}`, async () => {
      await fc.assert(
        fc.asyncProperty(generator, async (transcript) => {
          const { back } = await throughStore(transcript);
          expect(back).toEqual(qwenCodeStoreProject(transcript));
        }),
        parameters,
      );
    });

  it("no warning about a subagent ⇒ the store gives the subagents back unchanged", async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(withSubagents, async (transcript) => {
        const { back, warnings } = await throughStore(transcript);
        // Warnings about the subagents have a path at or inside them ($.subagents, $.subagents[k]…).
        if (warnings.some((warning) => warning.path?.startsWith("$.subagents") === true)) return;
        checked += 1;
        expect(back.subagents).toEqual(transcript.subagents);
      }),
      parameters,
    );
    // Not vacuous: some generated subagents write with no warning of their own.
    expect(checked).toBeGreaterThan(0);
  });

  it("the control: a store that drops the agents' files breaks the law", async () => {
    const sample = fc.sample(withSubagents, { numRuns: 20, seed: 7 });
    let broken = 0;
    for (const transcript of sample) {
      const { back } = await throughStore(transcript, (store, native) =>
        store.save({ lines: native.lines, finalNewline: native.finalNewline }, { cwd: "/work/g" }),
      );
      if (!isEqual(back, qwenCodeStoreProject(transcript))) broken += 1;
    }
    expect(broken).toBe(sample.length);
  });
});

describe("qwen_code.subagents: saved beside the session, or left out of a file written alone", () => {
  const parameters = lawParameters(40);
  const subagentLosses = (warnings: readonly Warning[]) =>
    warnings.filter((warning) => warning.code === "qwen_code.subagents");

  it("a store save reports no subagents loss, and the store gives every subagent back", async () => {
    await fc.assert(
      fc.asyncProperty(withSubagents, async (transcript) => {
        const { back, warnings } = await throughStore(transcript);
        expect(subagentLosses(warnings)).toEqual([]);
        expect(back.subagents?.length).toBe(transcript.subagents?.length);
      }),
      parameters,
    );
  });

  it("written alone, the loss says the subagents were left out of the file, and they are", () => {
    fc.assert(
      fc.property(withSubagents, (transcript) => {
        const { warnings, onWarning } = collecting();
        const text = qwenCodeCodec.serialize(qwenCodeCodec.fromCommon(transcript, { onWarning }));
        expect(subagentLosses(warnings)).toEqual([
          {
            kind: "degraded",
            code: "qwen_code.subagents",
            message:
              "a subagent conversation was left out of this file: a store save (`txcript continue`) writes it as a transcript of its own beside the session file",
            count: transcript.subagents?.length,
            path: "$.subagents",
          },
        ]);
        expect(qwenCodeCodec.toCommon(qwenCodeCodec.parse(text)).subagents).toBeUndefined();
      }),
      parameters,
    );
  });

  it("an empty session leaves its subagents out even for a store save (an empty file has nothing beside it)", () => {
    const { warnings, onWarning } = collecting();
    const native = qwenCodeCodec.fromCommon(
      { ...withAgents, messages: [] },
      { forStore: true, onWarning },
    );
    expect(native.subagents).toBeUndefined();
    expect(subagentLosses(warnings).map((warning) => warning.message)).toEqual([
      "a subagent conversation was left out: an empty session is written as an empty file, with no transcripts beside it",
    ]);
  });
});

function isEqual(left: unknown, right: unknown): boolean {
  try {
    expect(left).toEqual(right);
    return true;
  } catch {
    return false;
  }
}

describe("hostile subagent directories", () => {
  async function placed(): Promise<{ root: string; agents: string }> {
    const root = tempRoot();
    await fs.cp(fixtureRoot, root, { recursive: true });
    return { root, agents: path.join(root, "projects/-tmp-qwork-p/subagents", sessionId) };
  }
  const meta = "agent-general-purpose-call_agent_1.meta.json";
  const transcript = "agent-general-purpose-call_agent_1.jsonl";

  for (const [label, spoil] of [
    [
      "a meta file that is not JSON",
      (agents: string) => fs.writeFile(path.join(agents, meta), "{"),
    ],
    [
      "a meta file nested too deeply to parse",
      (agents: string) => fs.writeFile(path.join(agents, meta), "[".repeat(200_000)),
    ],
    [
      "a meta file naming another session",
      async (agents: string) => {
        const value = JSON.parse(await fs.readFile(path.join(agents, meta), "utf8"));
        await fs.writeFile(
          path.join(agents, meta),
          JSON.stringify({ ...value, parentSessionId: "00000000-0000-4000-8000-000000000000" }),
        );
      },
    ],
    [
      "a meta file whose agentId names another file",
      async (agents: string) => {
        const value = JSON.parse(await fs.readFile(path.join(agents, meta), "utf8"));
        await fs.writeFile(path.join(agents, meta), JSON.stringify({ ...value, agentId: "x" }));
      },
    ],
    ["a transcript missing", (agents: string) => fs.rm(path.join(agents, transcript))],
    [
      "a transcript that is a link out of the store",
      async (agents: string) => {
        await fs.rm(path.join(agents, transcript));
        await fs.symlink(sessionFile, path.join(agents, transcript));
      },
    ],
    [
      "a meta file that is a link",
      async (agents: string) => {
        const target = path.join(path.dirname(agents), "elsewhere.json");
        await fs.rename(path.join(agents, meta), target);
        await fs.symlink(target, path.join(agents, meta));
      },
    ],
  ] as const)
    it(`${label}: the agent is left out as a named loss, the session still loads`, async () => {
      const { root, agents } = await placed();
      // The control: untouched, the agent is there.
      const before = await new QwenCodeStore({ root }).load(sessionId);
      expect(before.subagents).toHaveLength(1);
      await spoil(agents);
      const { warnings, onWarning } = collecting();
      const file = path.join(root, "projects/-tmp-qwork-p/chats", `${sessionId}.jsonl`);
      const loaded = await qwenCodeHarness.loadFile?.(file, { environment: {}, onWarning });
      expect(loaded?.subagents).toBeUndefined();
      expect(loaded?.lines).toEqual(before.lines);
      expect(warnings.map((warning) => warning.code)).toEqual(["qwen_code.subagent-file"]);
    });

  it("a parentAgentId cycle or a missing parent reads as top-level agents, never a loop", async () => {
    const root = tempRoot();
    const store = new QwenCodeStore({ root });
    await store.save(qwenCodeCodec.fromCommon(withAgents));
    const agents = path.join(
      root,
      "projects",
      qwenProjectDirName("/work/p"),
      "subagents",
      withAgents.meta.id,
    );
    const ids = async () =>
      (qwenCodeCodec.toCommon(await store.load(withAgents.meta.id)).subagents ?? []).map(
        (subagent) => [subagent.id, (subagent.subagents ?? []).map((nested) => nested.id)],
      );
    // The control: as written, the nested agent is under its parent.
    expect((await ids())[0]).toEqual(["worker-a", ["worker-a-nested"]]);
    const setParent = async (name: string, parentAgentId: string) => {
      const file = path.join(agents, `agent-${name}.meta.json`);
      const meta = JSON.parse(await fs.readFile(file, "utf8"));
      await fs.writeFile(file, JSON.stringify({ ...meta, parentAgentId }));
    };
    await setParent("worker-a", "worker-a-nested");
    expect((await ids()).map(([id]) => id)).toEqual(
      expect.arrayContaining(["worker-a", "worker-a-nested"]),
    );
    expect((await ids()).every(([, nested]) => (nested as string[]).length === 0)).toBe(true);
    await setParent("worker-a-nested", "no-such-agent");
    expect((await ids()).map(([id]) => id)).toContain("worker-a-nested");
  });

  it("a subagents/<id> that is a link is not followed", async () => {
    const { root, agents } = await placed();
    const moved = path.join(root, "moved");
    await fs.rename(agents, moved);
    await fs.symlink(moved, agents);
    const loaded = await new QwenCodeStore({ root }).load(sessionId);
    expect(loaded.subagents).toBeUndefined();
  });
});
