// End-to-end `txcript continue`: the copy lands in the target store, the
// source is untouched, the resume command (overridden by a recording
// script) runs with the new id in the right directory, and every refusal
// writes nothing.
import { createHash } from "node:crypto";
import { existsSync, promises as fs } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  assertBuilt,
  type Home,
  listFiles,
  makeHome,
  realRoot,
  removeHome,
  txcript,
} from "./e2e.js";
import { sampleTranscript } from "./sample.js";

let home: Home;
let project: string;
let source: string;
beforeAll(assertBuilt);
beforeEach(async () => {
  home = await makeHome();
  project = path.join(home.root, "project");
  await fs.mkdir(project);
  source = path.join(home.work, "sample.common.json");
  const document = {
    format: "txcript.common/v1",
    ...sampleTranscript,
    meta: { ...sampleTranscript.meta, cwd: project },
  };
  await fs.writeFile(source, `${JSON.stringify(document, null, 2)}\n`);
});
afterEach(async () => {
  await removeHome(home);
});

const digest = async (file: string) =>
  createHash("sha256")
    .update(await fs.readFile(file))
    .digest("hex");

/** A resume command that records its cwd and arguments, and exits with $RECORD_EXIT. */
async function recorder(): Promise<{ script: string; record: string }> {
  const script = path.join(home.root, "record.sh");
  const record = path.join(home.root, "record.txt");
  await fs.writeFile(
    script,
    `#!/bin/sh\nprintf '%s\\n' "$PWD" "$@" > '${record}'\nexit "\${RECORD_EXIT:-0}"\n`,
    { mode: 0o755 },
  );
  return { script, record };
}

describe("txcript continue --with claude_code", () => {
  it("writes the session into the store and prints the resume command with --no-resume", async () => {
    const before = await digest(source);
    const result = await txcript(home, ["continue", source, "--with", "claude", "--no-resume"]);
    expect(result.code).toBe(0);
    const [command, ...rest] = result.stdout.split("\n");
    expect(rest).toEqual([""]);
    const id = /^claude --resume=([0-9a-f-]{36})$/.exec(command as string)?.[1];
    expect(id).toBeDefined();
    const files = await listFiles(path.join(home.claudeConfig, "projects"));
    expect(files).toEqual([`${project.replace(/[/.\\:]/g, "-")}/${id}.jsonl`]);
    expect(result.stderr).toContain(`txcript: wrote claude_code session ${id} to `);
    expect(await digest(source)).toBe(before);
    // What was written reads back as the same conversation.
    const view = await txcript(home, ["view", id as string]);
    expect(view.code).toBe(0);
    expect(view.stdout).toContain("There are two files: a.txt and b.txt.");
    expect(view.stdout).toContain('→ Bash {"command":"ls"}');
  });

  it("launches the resume command in the session's directory, with the new id", async () => {
    const { script, record } = await recorder();
    const result = await txcript(home, ["continue", source, "--with", "claude_code"], {
      env: { TXCRIPT_CLAUDE_CODE_RESUME_CMD: `${script} --resume {id}` },
    });
    expect(result.code).toBe(0);
    const [cwd, flag, id, ...rest] = (await fs.readFile(record, "utf8")).split("\n");
    expect(cwd).toBe(project);
    expect(flag).toBe("--resume");
    expect(rest).toEqual([""]);
    expect(await listFiles(path.join(home.claudeConfig, "projects"))).toEqual([
      `${project.replace(/[/.\\:]/g, "-")}/${id}.jsonl`,
    ]);
    expect(result.stderr).toContain(`launching ${script} --resume '${id}' in ${project}`);
  });

  it("runs `claude --resume=<id>` from PATH by default", async () => {
    const { script, record } = await recorder();
    const fakeBin = path.join(home.root, "fake-bin");
    await fs.mkdir(fakeBin);
    await fs.copyFile(script, path.join(fakeBin, "claude"));
    await fs.chmod(path.join(fakeBin, "claude"), 0o755);
    const result = await txcript(home, ["continue", source, "--with", "claude_code"], {
      env: { PATH: fakeBin },
    });
    expect(result.code, result.stderr).toBe(0);
    const [cwd, flag, ...rest] = (await fs.readFile(record, "utf8")).split("\n");
    expect([cwd, rest]).toEqual([project, [""]]);
    const id = flag?.replace(/^--resume=/, "");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(result.stderr).toContain(`txcript: launching claude --resume=${id} in ${project}\n`);
  });

  it("continues in the current directory when the recorded one does not exist here", async () => {
    await fs.rm(project, { recursive: true });
    const { script, record } = await recorder();
    const result = await txcript(home, ["continue", source, "--with", "claude_code"], {
      env: { TXCRIPT_CLAUDE_CODE_RESUME_CMD: `${script} {id}`, RECORD_EXIT: "3" },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`the session's directory ${project} does not exist here`);
    const [cwd, id] = (await fs.readFile(record, "utf8")).split("\n");
    expect(cwd).toBe(home.work);
    expect(await listFiles(path.join(home.claudeConfig, "projects"))).toEqual([
      `${home.work.replace(/[/.\\:]/g, "-")}/${id}.jsonl`,
    ]);
  });

  it("keeps the written session when claude is not installed, and says how to resume", async () => {
    const empty = path.join(home.root, "empty-bin");
    await fs.mkdir(empty);
    const result = await txcript(home, ["continue", source, "--with", "claude_code"], {
      env: { PATH: empty },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /txcript: cannot launch claude: not found \(the session is written; run `claude --resume=[0-9a-f-]{36}` in /,
    );
    expect(await listFiles(path.join(home.claudeConfig, "projects"))).toHaveLength(1);
  });

  it("refuses to write the same session twice without --force", async () => {
    const args = ["continue", source, "--with", "claude_code", "--no-resume"];
    const first = await txcript(home, args);
    const second = await txcript(home, args);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(
      /this session was already continued in claude_code \(resume it with `claude --resume=[0-9a-f-]{36}`, or pass --force/,
    );
    const forced = await txcript(home, [...args, "--force"]);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toBe(first.stdout);
  });

  it("gives a range copy its own id, and refuses a range that cuts a call", async () => {
    const whole = await txcript(home, ["continue", source, "--with", "claude", "--no-resume"]);
    const ranged = await txcript(home, [
      "continue",
      `${source}#1-3`,
      "--with",
      "claude",
      "--no-resume",
    ]);
    expect(ranged.code).toBe(0);
    expect(ranged.stdout).not.toBe(whole.stdout);
    const id = ranged.stdout.trim().split(/[ =]/).at(-1) as string;
    const view = await txcript(home, ["view", id]);
    expect(view.stdout).toContain("#3 user");
    expect(view.stdout).not.toContain("#4 ");
    const cut = await txcript(home, ["continue", `${source}#2`, "--with", "claude", "--no-resume"]);
    expect(cut.code).toBe(2);
    expect(cut.stderr).toBe(
      "txcript: range #2 would cut a tool call from its result (the nearest valid range is #2-3)\n",
    );
    expect(await listFiles(path.join(home.claudeConfig, "projects"))).toHaveLength(2);
  });

  it("refuses to copy a session onto itself, even with --force, but forks a range", async () => {
    const first = await txcript(home, ["continue", source, "--with", "claude", "--no-resume"]);
    const id = first.stdout.trim().split(/[ =]/).at(-1) as string;
    const [stored] = await listFiles(path.join(home.claudeConfig, "projects"));
    const file = path.join(home.claudeConfig, "projects", stored as string);
    const before = await digest(file);
    const again = await txcript(home, [
      "continue",
      id,
      "--with",
      "claude",
      "--no-resume",
      "--force",
    ]);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(
      `txcript: ${file}: this session is already in the claude_code store; nothing was written (resume it with \`claude --resume=${id}\`, or continue a range of it to fork a copy)\n`,
    );
    expect(await digest(file)).toBe(before);
    const fork = await txcript(home, ["continue", `${id}#1-3`, "--with", "claude", "--no-resume"]);
    expect(fork.code, fork.stderr).toBe(0);
    expect(await listFiles(path.join(home.claudeConfig, "projects"))).toHaveLength(2);
  });

  it("writes into --store DIR instead of the default store", async () => {
    const out = path.join(home.root, "elsewhere");
    const result = await txcript(home, [
      "continue",
      source,
      "--with",
      "claude_code",
      "--no-resume",
      "--store",
      out,
    ]);
    expect(result.code).toBe(0);
    expect(await listFiles(out)).toHaveLength(1);
    expect(await listFiles(path.join(home.claudeConfig, "projects"))).toEqual([]);
  });
});

describe("txcript continue refusals write nothing and exit 2", () => {
  it("refuses --with amp, saying why and what to do instead", async () => {
    const result = await txcript(home, ["continue", source, "--with", "amp"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "txcript: cannot continue in amp: current Amp builds are server-authoritative: they neither read nor write the local threads directory, so a thread file written there would never be seen; nothing was written (give Amp the conversation as context instead: `txcript export <ref>` writes it as Common JSON, `txcript view <ref>` as text)\n",
    );
    expect(await listFiles(home.root)).toEqual(["work/sample.common.json"]);
  });
  it("refuses stream_json and common, which keep nothing to resume", async () => {
    for (const target of ["stream-json", "common"]) {
      const result = await txcript(home, ["continue", source, "--with", target]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(
        /^txcript: cannot continue in (stream_json|common): .*nothing was written \(.+\)\n$/,
      );
    }
    expect(await listFiles(home.root)).toEqual(["work/sample.common.json"]);
  });
  it("refuses a session whose id begins with -, before writing or launching anything", async () => {
    const { script, record } = await recorder();
    const hostile = path.join(home.work, "hostile.common.json");
    for (const id of ["--yolo", "-p"]) {
      const document = JSON.parse(await fs.readFile(source, "utf8"));
      await fs.writeFile(hostile, JSON.stringify({ ...document, meta: { ...document.meta, id } }));
      for (const target of ["claude_code", "codex", "pi", "gemini_cli", "opencode"]) {
        const result = await txcript(home, ["continue", hostile, "--with", target], {
          env: { [`TXCRIPT_${target.toUpperCase()}_RESUME_CMD`]: `${script} {id}` },
        });
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toContain(
          `txcript: ${hostile}: the session id ${JSON.stringify(id)} begins with "-", which a program could take for an option; nothing was written`,
        );
      }
    }
    expect(existsSync(record)).toBe(false);
    expect(await listFiles(home.root)).toEqual([
      "record.sh",
      "work/hostile.common.json",
      "work/sample.common.json",
    ]);
  });
});

const realExport = path.join(realRoot, "amp-export-convo.json");
const describeReal = existsSync(realExport) ? describe : describe.skip;
if (!existsSync(realExport))
  console.warn(
    `SKIPPED: the real Amp export is absent (${realExport}); continue on it is untested`,
  );

describeReal("continue on the real Amp export (../shared/real/amp-export-convo.json)", () => {
  it("writes a Claude Code session with the whole conversation, source untouched", async () => {
    const before = await digest(realExport);
    const result = await txcript(home, [
      "continue",
      realExport,
      "--with",
      "claude_code",
      "--no-resume",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const id = result.stdout.trim().split(/[ =]/).at(-1) as string;
    expect(await digest(realExport)).toBe(before);
    const [file] = await listFiles(path.join(home.claudeConfig, "projects"));
    expect(file).toBe(`${home.work.replace(/[/.\\:]/g, "-")}/${id}.jsonl`);
    const original = await txcript(home, ["export", realExport]);
    const written = await txcript(home, ["export", id]);
    expect(written.code).toBe(0);
    const tools = (text: string) =>
      (JSON.parse(text).messages as { content: { type: string; id?: string }[] }[]).flatMap(
        (message) =>
          message.content.filter((block) => block.type === "tool_use").map((block) => block.id),
      );
    expect(tools(written.stdout)).toEqual(tools(original.stdout));
    expect(tools(written.stdout).length).toBeGreaterThan(5);
  });
});
