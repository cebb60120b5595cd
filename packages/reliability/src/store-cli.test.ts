// Hostile store contents through the built CLI: stores holding cut files,
// garbage, a FIFO and symlinks pointing outside are listed without a crash or
// a hang (bad files skipped and summarized), and a Common document whose id
// and cwd try path traversal is continued into the Claude Code store and
// nowhere else.
import { execFileSync } from "node:child_process";
import { promises as fs, readFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Home, listFiles, makeHome, removeHome, sha256, txcript } from "./cli.js";
import { fixturesRoot } from "./parsers.js";

const ampThread = readFileSync(path.join(fixturesRoot, "amp/export-thread.json"), "utf8");
const claudeSession = readFileSync(
  path.join(fixturesRoot, "claude-code/split-messages.jsonl"),
  "utf8",
);
const goodAmpId = "T-019f0000-1111-7222-8333-444455556666";
const uuid = (last: string) => `5e551011-0000-4000-8000-${last.padStart(12, "0")}`;

let home: Home;
beforeEach(async () => {
  home = await makeHome();
});
afterEach(async () => {
  await removeHome(home);
});

describe("hostile store contents", () => {
  it("list skips cut, garbage, FIFO and outside-pointing entries, lists the good ones, and does not hang", async () => {
    await fs.writeFile(path.join(home.ampThreads, `${goodAmpId}.json`), ampThread);
    await fs.writeFile(
      path.join(home.ampThreads, "T-019f0000-1111-7222-8333-000000000001.json"),
      ampThread.slice(0, 500),
    );
    await fs.writeFile(
      path.join(home.ampThreads, "T-019f0000-1111-7222-8333-000000000002.json"),
      "\u0000\u00ff garbage",
    );
    execFileSync("mkfifo", [
      path.join(home.ampThreads, "T-019f0000-1111-7222-8333-000000000003.json"),
    ]);
    const outside = path.join(home.root, "outside");
    await fs.mkdir(outside);
    await fs.writeFile(
      path.join(outside, "thread.json"),
      ampThread.replace(goodAmpId, "T-019f0000-1111-7222-8333-000000000004"),
    );
    await fs.symlink(
      path.join(outside, "thread.json"),
      path.join(home.ampThreads, "T-019f0000-1111-7222-8333-000000000004.json"),
    );
    const project = path.join(home.claudeProjects, "-Users-alice-src-app");
    await fs.mkdir(project, { recursive: true });
    await fs.writeFile(path.join(project, `${uuid("1")}.jsonl`), claudeSession);
    await fs.writeFile(path.join(project, `${uuid("2")}.jsonl`), "not json at all\n{\n");
    execFileSync("mkfifo", [path.join(project, `${uuid("3")}.jsonl`)]);
    await fs.writeFile(path.join(outside, "session.jsonl"), claudeSession);
    await fs.symlink(path.join(outside, "session.jsonl"), path.join(project, `${uuid("4")}.jsonl`));
    await fs.symlink(outside, path.join(home.claudeProjects, "-linked-outside"));

    const result = await txcript(home, ["list", "--json"], { timeoutMs: 30_000 });
    expect(result.signal, result.stderr).toBeNull();
    expect(result.code, result.stderr).toBe(0);
    const listed = (JSON.parse(result.stdout) as { id: string }[]).map((entry) => entry.id).sort();
    // The good Claude Code session's id is its file name; the good thread's is its id.
    expect(listed).toContain(goodAmpId);
    expect(listed).toContain(uuid("1"));
    for (const bad of ["000000000003", "000000000004"]) expect(listed.join(" ")).not.toContain(bad);
    expect(listed).not.toContain(uuid("3"));
    expect(listed).not.toContain(uuid("4"));
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);

    // Looking one of the bad ones up is a clear one-line error, not a hang.
    for (const id of ["T-019f0000-1111-7222-8333-000000000003", uuid("3")]) {
      const view = await txcript(home, ["view", id], { timeoutMs: 30_000 });
      expect(view.signal, `${id}: ${view.stderr}`).toBeNull();
      expect(view.code, view.stderr).toBe(1);
      expect(view.stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  it("continue of a Common document whose id and cwd try path traversal writes only inside the store", async () => {
    const document = {
      format: "txcript.common/v1",
      meta: {
        id: "../../../../escape",
        timestamp: "2026-01-01T00:00:00.000Z",
        cwd: "../../../../escape",
      },
      messages: [
        {
          role: "user",
          timestamp: "2026-01-01T00:00:00.000Z",
          content: [{ type: "text", text: "hi" }],
        },
        {
          role: "assistant",
          timestamp: "2026-01-01T00:00:01.000Z",
          content: [{ type: "text", text: "hello" }],
        },
      ],
    };
    const input = path.join(home.work, "escape.common.json");
    await fs.writeFile(input, `${JSON.stringify(document, null, 2)}\n`);
    const before = await sha256(input);
    const everythingBefore = await listFiles(home.root);
    const result = await txcript(home, [
      "continue",
      "escape.common.json",
      "--with",
      "claude_code",
      "--no-resume",
    ]);
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
    const added = (await listFiles(home.root)).filter((file) => !everythingBefore.includes(file));
    const storePrefix = `${path.relative(home.root, home.claudeProjects)}${path.sep}`;
    for (const file of added)
      expect(file.startsWith(storePrefix), `${file} is outside the store`).toBe(true);
    expect(added.length).toBeLessThanOrEqual(1);
    if (result.code === 0) expect(added).toHaveLength(1);
    expect(await sha256(input)).toBe(before);
  });
});
