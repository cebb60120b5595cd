// `continue` into a target whose tokens are only estimated (four characters
// a token) calibrates the estimate by the session's own record of its size:
// a session whose model recorded a prompt larger than the estimate is fitted
// to what it recorded. A copy that was cut carries no recorded usage: Qwen
// Code takes its context size on resume from the last record (docs/cli.md),
// and a record of the whole session refused a fitted copy.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { type Home, listFiles, txcript, useHome } from "./e2e.js";

let home: Home;
useHome((current) => {
  home = current;
});

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, "0")}:00.000Z`;

/**
 * A Common document of 40 turns of about 500 estimated tokens each (20,000
 * in all), whose last answer records `recorded` prompt tokens.
 */
async function session(recorded: number): Promise<string> {
  const cwd = path.join(home.root, "project");
  await fs.mkdir(cwd, { recursive: true });
  const messages: unknown[] = [];
  for (let turn = 0; turn < 40; turn += 1) {
    messages.push({
      role: "user",
      timestamp: at(turn),
      content: [{ type: "text", text: `question ${turn}: ${"words ".repeat(330)}` }],
    });
    messages.push({
      role: "assistant",
      timestamp: at(turn),
      content: [{ type: "text", text: `answer ${turn}` }],
      usage: {
        inputTokens: 5,
        outputTokens: 7,
        cacheReadInputTokens: turn === 39 ? recorded - 5 : 100,
        cacheCreationInputTokens: 0,
      },
    });
  }
  const file = path.join(home.work, `session-${recorded}.common.json`);
  const document = {
    format: "txcript.common/v1",
    meta: { id: `calibrated-${recorded}`, timestamp: at(0), cwd },
    messages,
  };
  await fs.writeFile(file, JSON.stringify(document));
  return file;
}

async function copyInto(
  target: string,
  file: string,
): Promise<{ code: number; stderr: string; lines: Record<string, unknown>[] }> {
  const store = path.join(home.root, `store-${target}-${path.basename(file)}`);
  const result = await txcript(home, [
    "continue",
    file,
    "--with",
    target,
    "--no-resume",
    "--store",
    store,
  ]);
  const written = (await listFiles(store)).filter((name) => name.endsWith(".jsonl"));
  const lines = (
    await Promise.all(written.map((name) => fs.readFile(path.join(store, name), "utf8")))
  )
    .flatMap((text) => text.split("\n"))
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code: result.code, stderr: result.stderr, lines };
}

/** The questions a copy holds, each once (Codex writes a prompt as an event and as an item). */
const userTexts = (lines: Record<string, unknown>[]) => [
  ...new Set(JSON.stringify(lines).match(/question \d+/g) ?? []),
];

describe("continue calibrates an estimated budget by the session's recorded usage", () => {
  it("fits a session whose record says it is larger than the estimate, and leaves its stale usage out", async () => {
    // 20,000 estimated tokens against a record of 220,000: over Qwen Code's 150,000 once calibrated.
    const copy = await copyInto("qwen_code", await session(220_000));
    expect(copy.code, copy.stderr).toBe(0);
    expect(copy.stderr).toMatch(
      /fitted into a budget of 150000 tokens \(an estimate of 4 characters a token; the session recorded 220000 prompt tokens at message 80, \d+\.\d\d× the count, so \d+ counted tokens\)/,
    );
    expect(copy.stderr).toMatch(/the recorded usage of \d+ messages left out of the copy/);
    expect(copy.stderr).toContain("what was left out is archived in");
    const questions = userTexts(copy.lines);
    expect(questions.length).toBeGreaterThan(0);
    expect(questions.length).toBeLessThan(40);
    expect(questions.at(-1)).toBe("question 39");
    // No record of the whole session's size is left for Qwen Code to take as the copy's.
    expect(copy.lines.filter((line) => line.usageMetadata !== undefined)).toEqual([]);
  });

  it("control: a record no larger than the estimate changes nothing, and an uncut copy keeps its usage", async () => {
    const copy = await copyInto("qwen_code", await session(15_000));
    expect(copy.code, copy.stderr).toBe(0);
    expect(copy.stderr).not.toContain("fitted into");
    expect(userTexts(copy.lines)).toHaveLength(40);
    expect(copy.lines.filter((line) => line.usageMetadata !== undefined)).toHaveLength(40);
  });

  it("control: a target counted by its own tokenizer (Codex, o200k) is not calibrated by another model's record", async () => {
    const copy = await copyInto("codex", await session(220_000));
    expect(copy.code, copy.stderr).toBe(0);
    expect(copy.stderr).not.toContain("fitted into");
    expect(userTexts(copy.lines)).toHaveLength(40);
  });
});
