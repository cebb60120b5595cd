// Qwen Code 0.24.4 subagent transcripts through the CLI's road: the real
// recording in fixtures/qwen-code/subagent placed as ~/.qwen, read by path
// and by id with `view`, `export` and `convert`, shows the agent's own
// messages under the `agent` call that launched it; a batch over the store
// reads the agent file with its session, not on its own; and `continue
// --with qwen_code` writes a Claude Code session's subagent where Qwen Code
// 0.24.4 keeps it. The controls: the same session file copied out of the
// store's layout has no subagent, and neither does the text of its file.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { commonCodec, type Transcript } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { fixturesRoot, type Home, txcript, useHome } from "./e2e.js";

let home: Home;
useHome((made) => {
  home = made;
});

const sessionId = "65e85728-5d51-4b93-a94c-d5f2f77c9721";
const agentId = "general-purpose-call_agent_1";

/** The fixture's runtime directory placed as ~/.qwen; the session file's path in it. */
async function placeFixture(): Promise<string> {
  await fs.cp(path.join(fixturesRoot, "qwen-code", "subagent"), path.join(home.home, ".qwen"), {
    recursive: true,
  });
  return path.join(home.home, ".qwen", "projects", "-tmp-qwork-p", "chats", `${sessionId}.jsonl`);
}

/** The session file copied out of the store's layout (no chats/ directory around it). */
async function loneCopy(file: string): Promise<string> {
  const lone = path.join(home.work, `${sessionId}.jsonl`);
  await fs.copyFile(file, lone);
  return lone;
}

function document(text: string): Transcript {
  return commonCodec.toCommon(commonCodec.parse(text));
}

const agentBlock = [
  `    ┌ subagent ${agentId} (general-purpose: look at notes)`,
  "    │ .1 user 2026-12-06T20:15:35.271Z",
  "    │   Read /tmp/qwork/p/notes.txt and say what it holds.",
  "    │ .2 assistant 2026-12-06T20:15:38.118Z",
  "    │   It holds hello notes.",
  "    └",
].join("\n");

describe("Qwen Code subagents through the CLI", () => {
  it("view by path and by id shows the agent's messages under its agent call; the control: a lone copy does not", async () => {
    const file = await placeFixture();
    const byPath = await txcript(home, ["view", file]);
    expect(byPath.code, byPath.stderr).toBe(0);
    expect(byPath.stdout).toContain(
      `  → Task {"description":"look at notes","prompt":"Read /tmp/qwork/p/notes.txt and say what it holds.","subagent_type":"general-purpose"} [call_agent_1]\n${agentBlock}`,
    );
    const byId = await txcript(home, ["view", sessionId, "--from", "qwen_code"]);
    expect(byId.code, byId.stderr).toBe(0);
    expect(byId.stdout).toContain(agentBlock);
    const lone = await txcript(home, ["view", await loneCopy(file)]);
    expect(lone.code, lone.stderr).toBe(0);
    expect(lone.stdout).not.toContain("┌ subagent");
  });

  it("convert to Common keeps the agent, linked to its call, with its meta's fields; the control: a lone copy has none", async () => {
    const file = await placeFixture();
    const out = path.join(home.work, "out.common.json");
    const result = await txcript(home, ["convert", file, "--to", "common", "-o", out, "--quiet"]);
    expect(result.code, result.stderr).toBe(0);
    const converted = document(await fs.readFile(out, "utf8"));
    expect(converted.subagents?.map(({ messages, ...rest }) => rest)).toEqual([
      {
        id: agentId,
        toolUseId: "call_agent_1",
        agentType: "general-purpose",
        title: "look at notes",
        model: "stub-model",
      },
    ]);
    expect(
      converted.subagents?.[0]?.messages.map((message) =>
        message.content.map((block) => (block.type === "text" ? block.text : block.type)),
      ),
    ).toEqual([["Read /tmp/qwork/p/notes.txt and say what it holds."], ["It holds hello notes."]]);
    // export by id (found by discovery) gives the same document.
    const exported = await txcript(home, ["export", sessionId, "--from", "qwen_code", "--quiet"]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(document(exported.stdout)).toEqual(converted);
    const loneOut = path.join(home.work, "lone.common.json");
    const lone = await txcript(home, [
      "convert",
      await loneCopy(file),
      "--to",
      "common",
      "-o",
      loneOut,
      "--quiet",
    ]);
    expect(lone.code, lone.stderr).toBe(0);
    expect(document(await fs.readFile(loneOut, "utf8")).subagents).toBeUndefined();
  });

  it("convert of the store directory reads the agent file with its session, not on its own", async () => {
    await placeFixture();
    const out = path.join(home.root, "converted");
    const result = await txcript(home, [
      "convert",
      path.join(home.home, ".qwen", "projects"),
      "--from",
      "qwen_code",
      "--to",
      "common",
      "--out-dir",
      out,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const written = (await fs.readdir(out, { recursive: true }))
      .map(String)
      .filter((name) => name.endsWith(".json"));
    expect(written).toEqual([path.join("-tmp-qwork-p", "chats", `${sessionId}.common.json`)]);
    const converted = document(await fs.readFile(path.join(out, written[0] as string), "utf8"));
    expect(converted.subagents?.map((subagent) => subagent.id)).toEqual([agentId]);
  });

  it("continue --with qwen_code writes a Claude Code session's subagent where Qwen Code keeps it", async () => {
    const claudeStore = path.join(fixturesRoot, "claude-code", "store", "-workspace");
    const id = "5e551011-0000-4000-8000-000000000009";
    const projects = path.join(home.claudeConfig, "projects", "-work");
    await fs.mkdir(projects, { recursive: true });
    await fs.copyFile(path.join(claudeStore, `${id}.jsonl`), path.join(projects, `${id}.jsonl`));
    await fs.cp(path.join(claudeStore, id), path.join(projects, id), { recursive: true });
    const store = path.join(home.root, "qwen-store");
    const result = await txcript(home, [
      "continue",
      id,
      "--from",
      "claude_code",
      "--with",
      "qwen_code",
      "--no-resume",
      "--store",
      store,
      "--quiet",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const project = (await fs.readdir(path.join(store, "projects")))[0] as string;
    const agents = path.join(store, "projects", project, "subagents", id);
    const names = (await fs.readdir(agents)).sort();
    expect(names).toEqual(["agent-a4f2c1d9e8b7a6c51.jsonl", "agent-a4f2c1d9e8b7a6c51.meta.json"]);
    const meta = JSON.parse(await fs.readFile(path.join(agents, names[1] as string), "utf8"));
    expect(meta).toMatchObject({ agentId: "a4f2c1d9e8b7a6c51", parentSessionId: id });
    // The Claude Code reading of the source links the subagent to the same call.
    const source = await txcript(home, ["export", id, "--from", "claude_code", "--quiet"]);
    const sourceAgent = document(source.stdout).subagents?.[0];
    expect(meta.toolUseId).toBe(sourceAgent?.toolUseId);
    // Viewing the written session shows the subagent's messages.
    const written = path.join(store, "projects", project, "chats", `${id}.jsonl`);
    const view = await txcript(home, ["view", written]);
    expect(view.code, view.stderr).toBe(0);
    expect(view.stdout).toContain("┌ subagent a4f2c1d9e8b7a6c51");
    expect(
      document((await txcript(home, ["export", written, "--quiet"])).stdout).subagents,
    ).toEqual(expect.arrayContaining([expect.objectContaining({ id: "a4f2c1d9e8b7a6c51" })]));
  });
});
