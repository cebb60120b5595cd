// `txcript continue` on real sessions (../shared/real, read in place) and
// on the repo's slash-command fixture, checked in what each target's
// program would load: the archive note where the program starts reading
// (after the last compaction), `--full` sending the whole history, no tool
// result without its call in pi, Gemini CLI keeping the compaction summary,
// and OpenCode refusing to replace a session its database holds. Each
// written file is read here by a small parser written from the format docs
// (docs/formats/*.md), not through txcript's own readers.
import { existsSync, promises as fs } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { programBin, programSkipReason } from "../../../scripts/real-programs.mjs";
import { type Home, listFiles, realRoot, txcript, useHome } from "./e2e.js";

let home: Home;
useHome((made) => {
  home = made;
});

const compacted = path.join(realRoot, "claude-code", "fasthooks-main-2.0.76.jsonl");
/** How the compaction summary of fasthooks-main-2.0.76 begins (Claude Code's own words). */
const summaryHead = "This session is being continued from a previous conversation";
const slashCommands = path.resolve(
  import.meta.dirname,
  "../../../fixtures/claude-code/slash-commands.jsonl",
);
const haveReal = existsSync(compacted);
if (!haveReal)
  console.warn(
    `SKIPPED: the real Claude Code session is absent (${compacted}); its checks do not run`,
  );

const noteStart = "[txcript] Parts of this conversation were left out";

type Line = Record<string, unknown>;
const linesOf = async (file: string): Promise<Line[]> =>
  (await fs.readFile(file, "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Line);

/** The stores of this home, as continue's environment variables name them. */
function env(): Record<string, string> {
  return {
    CODEX_HOME: path.join(home.home, ".codex"),
    PI_CODING_AGENT_DIR: path.join(home.home, ".pi", "agent"),
    GEMINI_CLI_HOME: home.home,
  };
}

async function continueInto(file: string, target: string, ...extra: string[]) {
  const result = await txcript(
    home,
    ["continue", file, "--with", target, "--no-resume", ...extra],
    {
      env: env(),
    },
  );
  return result;
}

/** The one session file written under `root` with this extension. */
async function writtenFile(root: string, extension: string): Promise<string> {
  const files = (await listFiles(root)).filter((file) => file.endsWith(extension));
  expect(files).toHaveLength(1);
  return path.join(root, files[0] as string);
}

/** The text of a Claude Code line's message (string content, or its text blocks). */
function claudeText(line: Line): string {
  const content = (line.message as { content?: unknown } | undefined)?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: { type?: string; text?: string }) => (block.type === "text" ? block.text : ""))
    .join("");
}

/**
 * What Claude Code loads on resume (docs/formats/claude-code.md): the chain
 * of parentUuid links from the last message line back to a line without a
 * parent (a compact_boundary starts a new chain).
 */
function claudeChain(lines: Line[]): Line[] {
  const byUuid = new Map(
    lines.filter((line) => typeof line.uuid === "string").map((line) => [line.uuid, line]),
  );
  const messages = lines.filter((line) => line.type === "user" || line.type === "assistant");
  const chain: Line[] = [];
  let current: Line | undefined = messages.at(-1);
  while (current !== undefined) {
    chain.unshift(current);
    const parent = current.parentUuid;
    current = typeof parent === "string" ? byUuid.get(parent) : undefined;
  }
  // Its message lines (system lines on the chain are not sent as messages).
  return chain.filter((line) => line.type === "user" || line.type === "assistant");
}

/**
 * What pi sends on resume (../shared/harnesses/pi.md, docs/formats/pi.md):
 * with a compaction on the path, its summary, the entries from its
 * firstKeptEntryId up to it, then the entries after it; here reduced to the
 * message entries after the last compaction (the note must be among them).
 */
function piAfterLastCompaction(lines: Line[]): Line[] {
  const last = lines.findLastIndex((line) => line.type === "compaction");
  return lines.slice(last + 1).filter((line) => line.type === "message");
}

function piText(line: Line): string {
  const content = (line.message as { content?: unknown }).content;
  if (typeof content === "string") return content;
  return Array.isArray(content)
    ? content.map((block: { text?: string }) => block.text ?? "").join("")
    : "";
}

describe.skipIf(!haveReal)(
  "continue of a compacted real Claude Code session (fasthooks-main-2.0.76)",
  () => {
    it("into Claude Code: the note is on the chain Claude Code loads, after the compact boundary", async () => {
      const result = await continueInto(compacted, "claude_code");
      expect(result.code, result.stderr).toBe(0);
      const lines = await linesOf(
        await writtenFile(path.join(home.claudeConfig, "projects"), ".jsonl"),
      );
      const chain = claudeChain(lines);
      // The chain starts at the compaction: the boundary has no parent, and the summary follows it.
      const boundary = lines.find(
        (line) => line.type === "system" && line.subtype === "compact_boundary",
      );
      expect(boundary?.parentUuid).toBe(null);
      expect(claudeText(chain[0] as Line)).toMatch(/^This session is being continued/);
      expect(chain.filter((line) => claudeText(line).startsWith(noteStart))).toHaveLength(1);
    });

    it("into pi: the note is after the last compaction entry, where pi starts sending", async () => {
      const result = await continueInto(compacted, "pi");
      expect(result.code, result.stderr).toBe(0);
      const lines = await linesOf(await writtenFile(path.join(home.home, ".pi"), ".jsonl"));
      expect(lines.some((line) => line.type === "compaction")).toBe(true);
      const sent = piAfterLastCompaction(lines);
      expect(sent.filter((line) => piText(line).startsWith(noteStart))).toHaveLength(1);
    });

    it("into Gemini CLI: the compaction summary is a record the model receives", async () => {
      const result = await continueInto(compacted, "gemini_cli");
      expect(result.code, result.stderr).toBe(0);
      const lines = await linesOf(await writtenFile(path.join(home.home, ".gemini"), ".jsonl"));
      // Records are every line after the metadata line with a `type` (docs/formats/gemini-cli.md).
      const records = lines
        .slice(1)
        .filter((line) => line.type === "user" || line.type === "gemini");
      const texts = records.map((record) =>
        ((record.content as { text?: string }[] | undefined) ?? [])
          .map((part) => part.text ?? "")
          .join(""),
      );
      expect(texts[0]).toMatch(/^This session is being continued from a previous conversation/);
      expect(texts.filter((text) => text.startsWith(noteStart))).toHaveLength(1);
    });

    it("--full into Claude Code: no compact boundary, so the chain Claude Code loads is the whole history, and it says so", async () => {
      const result = await continueInto(compacted, "claude_code", "--full");
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(
        /--full: 1 compaction marker written as plain text \(its summary kept\), so claude_code sends the whole history/,
      );
      const lines = await linesOf(
        await writtenFile(path.join(home.claudeConfig, "projects"), ".jsonl"),
      );
      expect(lines.some((line) => line.subtype === "compact_boundary")).toBe(false);
      const chain = claudeChain(lines);
      const messages = lines.filter((line) => line.type === "user" || line.type === "assistant");
      // Every message line is on the loaded chain, from the session's first prompt on.
      expect(chain.length).toBe(messages.length);
      expect(chain[0]).toBe(messages[0]);
      // The summary is still on the chain, as a plain user text after the txcript label.
      const texts = chain.map((line) => JSON.stringify(line.message ?? {}));
      const label = texts.findIndex((text) =>
        text.includes("[txcript] The conversation was compacted here"),
      );
      expect(label).toBeGreaterThan(0);
      expect(texts[label]).toContain(summaryHead);
    });

    it("--full into pi: no compaction entry, so pi sends every message", async () => {
      const result = await continueInto(compacted, "pi", "--full");
      expect(result.code, result.stderr).toBe(0);
      const lines = await linesOf(await writtenFile(path.join(home.home, ".pi"), ".jsonl"));
      expect(lines.some((line) => line.type === "compaction")).toBe(false);
      expect(result.stderr).toContain("so pi sends the whole history");
      const userTexts = lines
        .filter((line) => line.type === "message")
        .map((line) => JSON.stringify(line.message));
      expect(userTexts.some((text) => text.includes(summaryHead))).toBe(true);
    });
  },
);

describe("continue of slash commands (fixtures/claude-code/slash-commands.jsonl) into pi", () => {
  it("writes no tool result whose call is not an assistant tool call: pi's calls equal its results", async () => {
    const result = await continueInto(slashCommands, "pi");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("pi.orphan-result");
    const lines = await linesOf(await writtenFile(path.join(home.home, ".pi"), ".jsonl"));
    const calls: string[] = [];
    const results: string[] = [];
    for (const line of lines) {
      if (line.type !== "message") continue;
      const message = line.message as { role: string; content?: unknown; toolCallId?: string };
      if (message.role === "assistant" && Array.isArray(message.content))
        for (const block of message.content as { type: string; id: string }[])
          if (block.type === "toolCall") calls.push(block.id);
      if (message.role === "toolResult") results.push(message.toolCallId as string);
    }
    expect(results.filter((id) => !calls.includes(id))).toEqual([]);
    expect(calls.filter((id) => !results.includes(id))).toEqual([]);
    // The command's output is still there, as text after the command's text.
    const texts = lines.filter((line) => line.type === "message").map(piText);
    expect(texts.some((text) => text.startsWith("[tool result] "))).toBe(true);
  });
});

const opencodeBin: string | undefined = programBin("opencode");
const opencodeSkip: string | undefined = programSkipReason("opencode");
if (opencodeSkip !== undefined)
  console.warn(`SKIPPED: OpenCode checks of continue: ${opencodeSkip}`);

/** Loopback only: the pinned opencode first on PATH, fake keys, proxies at a dead local port. */
function opencodeEnv(withProgram: boolean): Record<string, string> {
  return {
    PATH: [withProgram ? path.dirname(opencodeBin as string) : undefined, "/usr/bin", "/bin"]
      .filter(Boolean)
      .join(path.delimiter),
    XDG_CONFIG_HOME: path.join(home.home, ".config"),
    XDG_CACHE_HOME: path.join(home.home, ".cache"),
    XDG_STATE_HOME: path.join(home.home, ".state"),
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    HTTP_PROXY: "http://127.0.0.1:9",
    HTTPS_PROXY: "http://127.0.0.1:9",
    NO_PROXY: "127.0.0.1,localhost",
    OPENAI_API_KEY: "fake",
    ANTHROPIC_API_KEY: "fake",
  };
}

describe.skipIf(opencodeSkip !== undefined)(
  "continue --with opencode (the pinned opencode)",
  () => {
    const staging = () => path.join(home.home, ".cache", "txcript", "opencode-import");
    const run = (withProgram: boolean, ...extra: string[]) =>
      runOn(slashCommands, withProgram, ...extra);
    const runOn = (source: string, withProgram: boolean, ...extra: string[]) =>
      txcript(home, ["continue", source, "--with", "opencode", "--no-resume", ...extra], {
        env: opencodeEnv(withProgram),
      });

    it("refuses to replace a session OpenCode's database holds, even with the staging cache gone; --force replaces it", async () => {
      const first = await run(true);
      expect(first.code, first.stderr).toBe(0);
      const id = /^opencode --session=(\S+)$/.exec(first.stdout.trim())?.[1];
      expect(id).toBeDefined();
      // Nothing is left staged once import ran.
      expect(await listFiles(staging())).toEqual([]);
      const second = await run(true);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain("this session was already continued in opencode");
      expect(second.stderr).toContain(`opencode --session=${id}`);
      expect(second.stderr).toContain("--force");
      const forced = await run(true, "--force");
      expect(forced.code, forced.stderr).toBe(0);
      const listed = await txcript(home, ["list", "--from", "opencode", "--json"], {
        env: opencodeEnv(false),
      });
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout.match(new RegExp(id as string, "g"))).toHaveLength(1);
    }, 300_000);

    const storage = path.join(realRoot, "opencode", "storage-pre-1.2-local-opencode");
    it.skipIf(!existsSync(storage))(
      "list counts every OpenCode session: two projects in the database (imported by continue) and the pre-1.2 storage tree",
      async () => {
        const second = path.join(home.root, "other-project");
        await fs.mkdir(second);
        const one = await run(true);
        expect(one.code, one.stderr).toBe(0);
        // The same session continued from another directory is another project's, with a range's own id.
        const two = await txcript(
          home,
          ["continue", `${slashCommands}#1-3`, "--with", "opencode", "--no-resume"],
          { env: opencodeEnv(true), cwd: second },
        );
        expect(two.code, two.stderr).toBe(0);
        await fs.cp(storage, path.join(home.dataHome, "opencode", "storage"), { recursive: true });
        const listed = await txcript(home, ["list", "--from", "opencode", "--json"], {
          env: opencodeEnv(false),
        });
        expect(listed.code, listed.stderr).toBe(0);
        const ids = (JSON.parse(listed.stdout) as { id: string }[]).map((row) => row.id).sort();
        const imported = [one.stdout, two.stdout].map(
          (out) => /^opencode --session=(\S+)$/.exec(out.trim())?.[1] as string,
        );
        expect(ids).toEqual([...imported, "ses_6d9b4aaecffet33kjFOiHfRk8H"].sort());
      },
      300_000,
    );

    it.skipIf(!haveReal)(
      "without the opencode program: fails, and leaves no staging file and no archive, so the next try is not 'already continued'",
      async () => {
        const failed = await runOn(compacted, false);
        expect(failed.code).not.toBe(0);
        expect(failed.stderr).toMatch(/could not run opencode/);
        expect(await listFiles(staging())).toEqual([]);
        const again = await runOn(compacted, false);
        expect(again.stderr).not.toContain("already continued");
        expect(again.stderr).toMatch(/could not run opencode/);
        expect(await listFiles(home.work)).toEqual([]);
      },
      120_000,
    );
  },
);
