// The subagents loss of the harnesses that keep subagents beside the session
// file (Qwen Code, Gemini CLI), as `txcript continue` and `txcript convert
// -o` report it for a Claude Code session with a subagent: `continue` saves
// through the store, which writes the subagent beside the session, so Qwen
// Code reports no loss and Gemini CLI only the link to the spawning call
// (and the agent type and model) it cannot keep; `convert -o` writes one
// file, and both say the subagent was left out of it. Each report is
// checked against the files written.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { fixturesRoot, type Home, listFiles, txcript, useHome } from "./e2e.js";

let home: Home;
useHome((made) => {
  home = made;
});

const id = "5e551011-0000-4000-8000-000000000009";
const agentId = "a4f2c1d9e8b7a6c51";

/** The Claude Code fixture session with its subagent file, placed in ~/.claude. */
beforeEach(async () => {
  const claudeStore = path.join(fixturesRoot, "claude-code", "store", "-workspace");
  const projects = path.join(home.claudeConfig, "projects", "-work");
  await fs.mkdir(projects, { recursive: true });
  await fs.copyFile(path.join(claudeStore, `${id}.jsonl`), path.join(projects, `${id}.jsonl`));
  await fs.cp(path.join(claudeStore, id), path.join(projects, id), { recursive: true });
});

interface LossJson {
  leg: string;
  harness: string;
  code: string;
  kind: string;
  count: number;
  message: string;
}

async function run(args: string[]): Promise<{ losses: LossJson[] }> {
  const result = await txcript(home, args);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { losses: LossJson[] };
}

function continueInto(target: string, store: string) {
  return run([
    "continue",
    id,
    "--from",
    "claude_code",
    "--with",
    target,
    "--no-resume",
    "--store",
    store,
    "--json",
  ]);
}

function convertTo(target: string, output: string) {
  return run(["convert", id, "--from", "claude_code", "--to", target, "-o", output, "--json"]);
}

const subagentLosses = (losses: readonly LossJson[], target: string) =>
  losses
    .filter((loss) => loss.code === `${target}.subagents`)
    .map(({ leg, harness, code, kind, count, message }) => ({
      leg,
      harness,
      code,
      kind,
      count,
      message,
    }));

describe("the subagents loss of Qwen Code and Gemini CLI, by where the session is written", () => {
  it("continue --with qwen_code saves the subagent beside the session and reports no loss of it", async () => {
    const store = path.join(home.root, "qwen-store");
    const { losses } = await continueInto("qwen_code", store);
    expect(subagentLosses(losses, "qwen_code")).toEqual([]);
    // Not a report of nothing: the subagent's transcript is in the store.
    const files = (await listFiles(store)).map((file) => path.basename(file));
    expect(files).toContain(`agent-${agentId}.jsonl`);
  });

  it("continue --with gemini_cli saves the subagent beside the session and reports the link it loses", async () => {
    const store = path.join(home.root, "gemini-store");
    const { losses } = await continueInto("gemini_cli", store);
    expect(subagentLosses(losses, "gemini_cli")).toEqual([
      {
        leg: "write",
        harness: "gemini_cli",
        code: "gemini_cli.subagents",
        kind: "degraded",
        count: 1,
        message:
          "a subagent conversation was written as a recording of its own beside the session file, without the link to the tool call that spawned it, its agent type or its model",
      },
    ]);
    const files = await listFiles(store);
    expect(files.map((file) => path.basename(file))).toContain(`${agentId}.jsonl`);
  });

  it.each([
    ["qwen_code", "a transcript"],
    ["gemini_cli", "a recording"],
  ])(
    "convert --to %s -o says the subagent was left out of the file, and it is",
    async (target, kind) => {
      const output = path.join(home.work, "out.jsonl");
      const { losses } = await convertTo(target, output);
      expect(subagentLosses(losses, target)).toEqual([
        {
          leg: "write",
          harness: target,
          code: `${target}.subagents`,
          kind: "degraded",
          count: 1,
          message: `a subagent conversation was left out of this file: a store save (\`txcript continue\`) writes it as ${kind} of its own beside the session file`,
        },
      ]);
      expect(await fs.readdir(home.work)).toEqual(["out.jsonl"]);
      expect(await fs.readFile(output, "utf8")).not.toContain(agentId);
    },
  );
});
