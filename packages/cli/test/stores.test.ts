// End-to-end `txcript list` and id lookup across stores: newest first,
// filters, JSON output, skipped files summarized, unique prefixes resolved
// and ambiguous ones listed.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { fixturesRoot, type Home, txcript, useHome } from "./e2e.js";
import { sampleCommonText, sampleTranscript } from "./sample.js";

let home: Home;
useHome((fresh) => {
  home = fresh;
});

/** Write a Common sample into the Claude store through the CLI; returns its id. */
async function storeSample(id: string, cwd: string, minute: number): Promise<string> {
  const file = path.join(home.work, `${id}.common.json`);
  const document = JSON.parse(sampleCommonText());
  document.meta = { ...document.meta, id, cwd, title: `title of ${id}` };
  await fs.writeFile(file, JSON.stringify(document));
  const result = await txcript(home, ["continue", file, "--with", "claude_code", "--no-resume"]);
  expect(result.code, result.stderr).toBe(0);
  const written = result.stdout.trim().split(/[ =]/).at(-1) as string;
  const stored = (await fs.readdir(path.join(home.claudeConfig, "projects"), { recursive: true }))
    .map(String)
    .find((name) => name.endsWith(`${written}.jsonl`)) as string;
  const time = new Date(Date.UTC(2026, 4, 1, 12, minute));
  await fs.utimes(path.join(home.claudeConfig, "projects", stored), time, time);
  return written;
}

describe("txcript list", () => {
  it("says so when there are no sessions", async () => {
    const result = await txcript(home, ["list"]);
    expect(result).toEqual({ code: 0, stdout: "no sessions found\n", stderr: "" });
  });
  it("lists sessions newest first, as a table and as JSON, with --limit and --cwd", async () => {
    const a = path.join(home.root, "a");
    const b = path.join(home.root, "b");
    await fs.mkdir(a);
    await fs.mkdir(b);
    const older = await storeSample("older", a, 1);
    const newer = await storeSample("newer", b, 2);
    const table = await txcript(home, ["list"]);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^UPDATED +HARNESS +ID +MSGS +TITLE +CWD$/);
    expect(lines[1]).toMatch(
      new RegExp(`^2026-05-01 12:02 +claude_code +${newer} .*title of newer +${b}$`),
    );
    expect(lines[2]).toContain(older);
    const json = await txcript(home, ["list", "--json"]);
    const rows = JSON.parse(json.stdout) as { id: string; harness: string; cwd: string }[];
    expect(rows.map((row) => row.id)).toEqual([newer, older]);
    expect(rows[0]).toMatchObject({
      harness: "claude_code",
      cwd: b,
      updatedAt: "2026-05-01T12:02:00.000Z",
    });
    const limited = JSON.parse((await txcript(home, ["list", "--json", "--limit", "1"])).stdout);
    expect(limited.map((row: { id: string }) => row.id)).toEqual([newer]);
    const inA = JSON.parse((await txcript(home, ["list", "--json", "--cwd", a])).stdout);
    expect(inA.map((row: { id: string }) => row.id)).toEqual([older]);
    const fromClaude = JSON.parse(
      (await txcript(home, ["list", "--json", "--from", "claude-code"])).stdout,
    );
    expect(fromClaude).toHaveLength(2);
  });
  it("summarizes unreadable files on stderr without failing", async () => {
    await storeSample("kept", home.work, 1);
    const junk = path.join(home.claudeConfig, "projects", "-junk");
    await fs.mkdir(junk);
    await fs.writeFile(path.join(junk, "junk.jsonl"), "this is not json\n");
    const result = await txcript(home, ["list"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("title of kept");
    expect(result.stderr).toMatch(/^txcript: skipped 1 unreadable file \(.*junk\.jsonl: .+\)\n$/);
  });
  it("refuses --from a harness without a store, and a bad --limit", async () => {
    const streamJson = await txcript(home, ["list", "--from", "stream_json"]);
    expect(streamJson.code).toBe(2);
    expect(streamJson.stderr).toMatch(/^txcript: stream_json keeps no sessions on disk/);
    // The hint names every harness with a store, from the registry.
    expect(streamJson.stderr).toMatch(
      /list reads the stores of cursor_cli, amp, opencode, copilot_cli, crush, qwen_code, claude_code, codex, pi, gemini_cli, kimi_cli/,
    );
    const limit = await txcript(home, ["list", "--limit", "0"]);
    expect(limit.code).toBe(2);
  });
});

describe("session ids across stores", () => {
  it("resolves a unique prefix and lists the candidates of an ambiguous one", async () => {
    // A UUID id is kept as the Claude Code session id, so these share a prefix.
    const first = await storeSample("abcdef01-0000-4000-8000-000000000001", home.work, 1);
    const second = await storeSample("abcdef01-0000-4000-8000-000000000002", home.work, 2);
    expect([first, second]).toEqual([
      "abcdef01-0000-4000-8000-000000000001",
      "abcdef01-0000-4000-8000-000000000002",
    ]);
    const third = await storeSample("fedcba98-0000-4000-8000-000000000003", home.work, 3);
    const unique = await txcript(home, ["view", "fedc"]);
    expect(unique.code, unique.stderr).toBe(0);
    expect(unique.stdout).toContain(`title of ${third}`);
    const longer = await txcript(home, ["export", "abcdef01-0000-4000-8000-000000000002"]);
    expect(JSON.parse(longer.stdout).meta.title).toBe(`title of ${second}`);
    const ambiguous = await txcript(home, ["view", "abcdef"]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain(`matches 2 sessions: `);
    expect(ambiguous.stderr).toContain(`claude_code ${first}`);
    expect(ambiguous.stderr).toContain(`claude_code ${second}`);
    expect(ambiguous.stderr).toMatch(/\(give more of the id\)\n$/);
  });
  it("converts a stored session by id and exports it", async () => {
    const id = await storeSample("stored", home.work, 1);
    const exported = await txcript(home, ["export", id]);
    expect(exported.code).toBe(0);
    const document = JSON.parse(exported.stdout);
    expect(document.messages.map((message: { role: string }) => message.role)).toEqual(
      sampleTranscript.messages.map((message) => message.role),
    );
    const converted = await txcript(home, ["convert", id, "--to", "stream_json"]);
    expect(converted.code).toBe(0);
    expect(JSON.parse(converted.stdout.split("\n")[0] as string)).toMatchObject({
      type: "system",
      subtype: "init",
    });
  });
});

describe("the Amp threads store", () => {
  async function storeAmpFixture(): Promise<string> {
    const text = await fs.readFile(path.join(fixturesRoot, "amp", "legacy-thread.json"), "utf8");
    const id = (JSON.parse(text) as { id: string }).id;
    await fs.writeFile(path.join(home.ampThreads, `${id}.json`), text);
    return id;
  }
  it("lists, views and continues a stored thread by id prefix", async () => {
    const id = await storeAmpFixture();
    const before = await fs.readFile(path.join(home.ampThreads, `${id}.json`), "utf8");
    const listed = JSON.parse((await txcript(home, ["list", "--json", "--from", "amp"])).stdout);
    expect(listed).toMatchObject([{ harness: "amp", id }]);
    const prefix = id.slice(0, 10);
    const view = await txcript(home, ["view", `${prefix}#1`]);
    expect(view.code, view.stderr).toBe(0);
    expect(view.stdout).toContain(`${id}`);
    expect(view.stdout).toContain("#1 user");
    const continued = await txcript(home, ["continue", prefix, "--with", "claude", "--no-resume"]);
    expect(continued.code, continued.stderr).toBe(0);
    const all = JSON.parse((await txcript(home, ["list", "--json"])).stdout);
    expect(all.map((row: { harness: string }) => row.harness).sort()).toEqual([
      "amp",
      "claude_code",
    ]);
    expect(await fs.readFile(path.join(home.ampThreads, `${id}.json`), "utf8")).toBe(before);
  });
  it("honours XDG_DATA_HOME when AMP_THREADS_DIR is unset", async () => {
    const id = await storeAmpFixture();
    const withXdg = await txcript(home, ["list", "--json"], {
      env: { AMP_THREADS_DIR: undefined },
    });
    expect(JSON.parse(withXdg.stdout).map((row: { id: string }) => row.id)).toEqual([id]);
    const elsewhere = path.join(home.root, "other-threads");
    await fs.mkdir(elsewhere);
    const moved = await txcript(home, ["list", "--json"], { env: { AMP_THREADS_DIR: elsewhere } });
    expect(JSON.parse(moved.stdout)).toEqual([]);
  });
});
