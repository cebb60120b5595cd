// End-to-end `txcript search` over the stores of a temporary home: an Amp
// thread and a Claude Code session continued from it; hits name the
// harness, id and message ordinal that `view` opens; the index lives in the
// home's cache directory and follows the stores.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import {
  fixturesRoot,
  type Home,
  hasScript,
  type RunResult,
  txcript,
  txcriptOnTty,
  useHome,
} from "./e2e.js";

let home: Home;
useHome((made) => {
  home = made;
});

const thread = "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001";

async function stock(): Promise<void> {
  await fs.copyFile(
    path.join(fixturesRoot, "amp", "legacy-thread.json"),
    path.join(home.ampThreads, `${thread}.json`),
  );
}

/** A hit as `search --json` prints it (the fields these tests read). */
interface Hit {
  harness: string;
  id: string;
  ordinal: number;
  snippet: string;
  rank: number;
}

/** The hits a `search --json` run printed. */
const hitsOf = (result: RunResult): Hit[] => JSON.parse(result.stdout) as Hit[];

/** The harnesses of a `search --json` run's hits. */
const harnessesOf = (result: RunResult) => new Set(hitsOf(result).map((hit) => hit.harness));

/** The Amp thread continued in Claude Code (a session file of one line per message). */
async function continueInClaudeCode(): Promise<void> {
  const continued = await txcript(home, [
    "continue",
    thread,
    "--with",
    "claude_code",
    "--no-resume",
  ]);
  expect(continued.code, continued.stderr).toBe(0);
}

describe("txcript search", () => {
  it("finds a message in any store, case- and accent-insensitively, with an ordinal view opens", async () => {
    await stock();
    const result = await txcript(home, ["search", "SPAN_INCLUDES_LAST"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^amp  ${thread}#3  Fix the off-by-one in range\\.rs  2026-`, "m"),
    );
    expect(result.stdout).toContain("«span_includes_last»");
    const view = await txcript(home, ["view", `${thread}#3`]);
    expect(view.stdout).toContain("span_includes_last");
    const accents = await txcript(home, ["search", "Régression", "TEST"]);
    expect(accents.stdout).toMatch(new RegExp(`^amp  ${thread}#4`, "m"));
  });

  it("prints JSON hits, filters by harness and follows a store that changed", async () => {
    await stock();
    const json = await txcript(home, ["search", "exclusive", "--json"]);
    const hits = hitsOf(json);
    expect(hits.length).toBeGreaterThan(0);
    expect(
      hits.every((hit) => hit.harness === "amp" && hit.id === thread && hit.snippet.includes("«")),
    ).toBe(true);
    await continueInClaudeCode();
    const search = (...more: string[]) => txcript(home, ["search", "exclusive", "--json", ...more]);
    expect(harnessesOf(await search())).toEqual(new Set(["amp", "claude_code"]));
    expect(harnessesOf(await search("--from", "claude"))).toEqual(new Set(["claude_code"]));
    await fs.rm(path.join(home.ampThreads, `${thread}.json`));
    expect(harnessesOf(await search())).toEqual(new Set(["claude_code"]));
  });

  it("rebuilds the index with --reindex and after it is damaged, and says nothing matched", async () => {
    await stock();
    expect((await txcript(home, ["search", "exclusive"])).code).toBe(0);
    const index = path.join(home.home, ".cache", "txcript", "search.sqlite");
    await fs.writeFile(index, "garbage ".repeat(1000));
    await fs.rm(`${index}-wal`, { force: true });
    await fs.rm(`${index}-shm`, { force: true });
    const damaged = await txcript(home, ["search", "exclusive"]);
    expect(damaged.code, damaged.stderr).toBe(0);
    expect(damaged.stderr).toContain(
      "rebuilding the search index (it was not a readable database)",
    );
    expect(damaged.stdout).toContain(thread);
    const reindexed = await txcript(home, ["search", "exclusive", "--reindex"]);
    expect(reindexed.stdout).toContain(thread);
    const none = await txcript(home, ["search", "zzzyzzyva"]);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe("");
    expect(none.stderr).toBe('txcript: no session matches "zzzyzzyva"\n');
  });

  it("refuses a query with nothing to search for and a bad date (exit 2)", async () => {
    const empty = await txcript(home, ["search", "***"]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/nothing to search for/);
    const date = await txcript(home, ["search", "x", "--since", "last tuesday"]);
    expect(date.code).toBe(2);
    expect(date.stderr).toMatch(/--since must be a date or a date-time/);
  });

  it("indexes a session past the input limit line by line, and reports one it cannot stream", async () => {
    await stock();
    await continueInClaudeCode();
    // A Qwen Code session: its harness reads a session whole only, so the limit holds for it.
    const qwen = path.join(home.home, ".qwen", "projects", "-tmp-qwork-p", "chats");
    await fs.mkdir(qwen, { recursive: true });
    const qwenId = "5f5c417b-55ad-47a6-ad93-dce2ab9d96e2";
    await fs.copyFile(
      path.join(
        fixturesRoot,
        "qwen-code",
        "store",
        "projects",
        "-tmp-qwork-p",
        "chats",
        `${qwenId}.jsonl`,
      ),
      path.join(qwen, `${qwenId}.jsonl`),
    );
    const amp = (await fs.stat(path.join(home.ampThreads, `${thread}.json`))).size;
    // Below every file: each is too long to be read whole.
    const limit = { TXCRIPT_MAX_INPUT_BYTES: "1000" };
    // (Not --json, which notes nothing on stderr.)
    const whole = await txcript(home, ["search", "exclusive"], {
      env: { ...limit, TXCRIPT_STREAM_MIN_BYTES: String(10 * amp) },
    });
    expect(whole.stdout).toBe("");
    expect(whole.stderr).toMatch(/could not index 3 sessions \(.*past the limit of 1000/);
    // Line by line, the Claude Code session and the Amp thread (one JSON document, walked line
    // by line) are indexed whatever the limit; the Qwen Code session cannot be, and is still
    // reported.
    const lines = await txcript(home, ["search", "exclusive"], {
      env: { ...limit, TXCRIPT_STREAM_MIN_BYTES: "0" },
    });
    expect(lines.code, lines.stderr).toBe(0);
    expect(lines.stderr).toMatch(/could not index 1 session \(.*qwen.*past the limit of 1000/);
    const json = await txcript(home, ["search", "exclusive", "--json"], {
      env: { ...limit, TXCRIPT_STREAM_MIN_BYTES: "0" },
    });
    const hits = hitsOf(json);
    expect(hits.length).toBeGreaterThan(0);
    expect(harnessesOf(json)).toEqual(new Set(["claude_code", "amp"]));
    // The same hits as a search with no limit gives (whole reads).
    const free = await txcript(home, ["search", "exclusive", "--json", "--reindex"]);
    // (bm25's rank depends on every session indexed: the Qwen Code session is indexed now.)
    const unranked = (list: Hit[]) => list.map(({ rank: _, ...hit }) => JSON.stringify(hit)).sort();
    expect(unranked(hitsOf(free))).toEqual(unranked(hits));
    if (hasScript) {
      // On a terminal, a search that reads a session line by line says how far it has read.
      const shown = await txcriptOnTty(home, ["search", "exclusive", "--reindex"], {
        TXCRIPT_STREAM_MIN_BYTES: "0",
      });
      expect(shown.code, shown.stdout).toBe(0);
      expect(shown.stdout).toMatch(/indexing \d\/3 sessions… reading a 0 MB session line by line/);
      const quiet = await txcriptOnTty(home, ["search", "exclusive", "--reindex"]);
      expect(quiet.stdout).not.toContain("line by line");
    }
    const bad = await txcript(home, ["search", "exclusive"], {
      env: { TXCRIPT_STREAM_MIN_BYTES: "lots", TXCRIPT_SEARCH_FAST: "0" },
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("TXCRIPT_STREAM_MIN_BYTES must be a whole number of bytes");
  });
});
