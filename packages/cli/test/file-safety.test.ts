// Issue 33, items 2 and 6, through the `txcript` command: the continue
// archive stays inside `<project>/.txcript/` (an id of `..`, a `.txcript`
// symlink), is ignored by git and redacted with --redact; `-o` never
// replaces a FIFO; `convert <dir> --out-dir` never writes through a symlinked
// subdirectory; a long output name works; a read-only directory is an I/O
// error (exit 1) naming the path; SIGINT/SIGTERM mid-write leave no
// temporary file; a FIFO named as a session in a store does not hang list or
// search. See docs/security.md.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, promises as fs, readdirSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { bin, type Home, listFiles, txcript, useHome } from "./e2e.js";

let home: Home;
useHome((made) => {
  home = made;
});

const at = "2026-01-01T00:00:00.000Z";
const github = ["gh", "p_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"].join("");
const text = (role: "user" | "assistant", words: string) => ({
  role,
  timestamp: at,
  content: [{ type: "text", text: words }],
});

/** A session with a compaction, so `continue` archives what comes before it. */
async function compacted(id: string, cwd: string, secret = "old question"): Promise<string> {
  const file = path.join(home.work, "compacted.common.json");
  await fs.writeFile(
    file,
    JSON.stringify({
      format: "txcript.common/v2",
      meta: { id, timestamp: at, cwd },
      messages: [
        text("user", secret),
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
  return file;
}

async function project(): Promise<string> {
  const directory = path.join(home.root, "project");
  await fs.mkdir(directory, { recursive: true });
  return directory;
}

describe("the continue archive", () => {
  it("an id of .. stays inside .txcript/ and overwrites nothing in the project", async () => {
    const cwd = await project();
    await fs.writeFile(path.join(cwd, "index.md"), "the project's own index\n");
    const file = await compacted("..", cwd);
    const result = await txcript(home, ["continue", file, "--with", "pi", "--no-resume"]);
    expect(result.code, result.stderr).toBe(0);
    expect(await fs.readFile(path.join(cwd, "index.md"), "utf8")).toBe("the project's own index\n");
    expect(existsSync(path.join(cwd, "transcript.common.json"))).toBe(false);
    expect(await listFiles(path.join(cwd, ".txcript"))).toEqual([
      ".gitignore",
      "_./index.md",
      "_./transcript.common.json",
    ]);
  });

  it("refuses a .txcript that is a symbolic link, writing nothing through it", async () => {
    const cwd = await project();
    const elsewhere = path.join(home.root, "elsewhere");
    await fs.mkdir(elsewhere);
    await fs.symlink(elsewhere, path.join(cwd, ".txcript"));
    const file = await compacted("linked", cwd);
    const result = await txcript(home, ["continue", file, "--with", "pi", "--no-resume"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `txcript: ${path.join(cwd, ".txcript")}: refusing to write through a symbolic link`,
    );
    expect(await fs.readdir(elsewhere)).toEqual([]);
  });

  it("is ignored by git in the project's work tree (git add -A leaves it out)", async () => {
    const cwd = await project();
    execFileSync("git", ["init", "-q", cwd]);
    const file = await compacted("tracked", cwd);
    const result = await txcript(home, ["continue", file, "--with", "pi", "--no-resume"]);
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(path.join(cwd, ".txcript", "tracked", "transcript.common.json"))).toBe(true);
    execFileSync("git", ["-C", cwd, "add", "-A"]);
    const staged = execFileSync("git", ["-C", cwd, "diff", "--cached", "--name-only"], {
      encoding: "utf8",
    });
    expect(staged).toBe("");
  });

  it("is readable by its owner only, and --redact takes the secrets out of it too", async () => {
    const cwd = await project();
    const file = await compacted("secret", cwd, `my token is ${github}`);
    const plain = await txcript(home, ["continue", file, "--with", "pi", "--no-resume"]);
    expect(plain.code, plain.stderr).toBe(0);
    const archived = path.join(cwd, ".txcript", "secret", "transcript.common.json");
    expect(await fs.readFile(archived, "utf8")).toContain(github);
    expect((await fs.stat(archived)).mode & 0o777).toBe(0o600);
    const redacted = await txcript(home, [
      "continue",
      file,
      "--with",
      "pi",
      "--no-resume",
      "--force",
      "--redact",
    ]);
    expect(redacted.code, redacted.stderr).toBe(0);
    const archive = await fs.readFile(archived, "utf8");
    expect(archive).not.toContain(github);
    expect(archive).toContain("[redacted: ");
  });
});

describe("output files", () => {
  it("-o a FIFO is refused even with --force, and stays a FIFO", async () => {
    const fifo = path.join(home.work, "pipe");
    execFileSync("mkfifo", [fifo]);
    const file = await compacted("fifo", home.work);
    const result = await txcript(home, ["convert", file, "--to", "pi", "-o", fifo, "--force"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${fifo}: refusing to replace a FIFO, even with --force`);
    expect((await fs.lstat(fifo)).isFIFO()).toBe(true);
  });

  it("convert <dir> --out-dir never writes through a symlinked subdirectory", async () => {
    const input = path.join(home.root, "in");
    await fs.mkdir(path.join(input, "sub"), { recursive: true });
    const file = await compacted("batch", home.work);
    await fs.copyFile(file, path.join(input, "sub", "one.common.json"));
    await fs.copyFile(file, path.join(input, "two.common.json"));
    const out = path.join(home.root, "out");
    const outside = path.join(home.root, "outside");
    await fs.mkdir(out);
    await fs.mkdir(outside);
    await fs.symlink(outside, path.join(out, "sub"));
    const result = await txcript(home, ["convert", input, "--to", "pi", "--out-dir", out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${path.join(out, "sub")}: refusing to write through a symbolic link`,
    );
    expect(await fs.readdir(outside)).toEqual([]);
    expect(await listFiles(out)).toEqual(["sub", "two.common.jsonl"]);
  });

  it("writes an output whose name is 250 bytes (the temporary name is shortened)", async () => {
    const file = await compacted("long", home.work);
    const name = `${"n".repeat(244)}.jsonl`;
    const result = await txcript(home, ["convert", file, "--to", "pi", "-o", name]);
    expect(result.code, result.stderr).toBe(0);
    expect(await fs.readdir(home.work)).toContain(name);
  });
});

/** Whether this process can run the CLI as an unprivileged user (root bypasses file modes). */
const asNobody =
  process.getuid?.() === 0 &&
  spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "true"]).status === 0;
const unprivileged = process.getuid?.() !== 0 || asNobody;
if (!unprivileged) console.warn("SKIPPED read-only directory tests: root without setpriv");

describe.skipIf(!unprivileged)("a read-only directory", () => {
  /** Run the bin as an unprivileged user: as is when not root, through setpriv as nobody when root. */
  function runUnprivileged(args: string[], cwd: string) {
    const argv = [process.execPath, bin, ...args];
    const [command, ...rest] = asNobody
      ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", ...argv]
      : argv;
    return spawnSync(command as string, rest, { cwd, env: home.env, encoding: "utf8" });
  }

  it("continue (archive) and convert -o into it are I/O errors naming the path (exit 1)", async () => {
    const cwd = await project();
    const file = await compacted("readonly", cwd);
    // The temporary home is the test's: let the unprivileged user in, then take the project away.
    execFileSync("chmod", ["-R", "a+rwX", home.root]);
    await fs.chmod(cwd, 0o555);
    const continued = runUnprivileged(["continue", file, "--with", "pi", "--no-resume"], cwd);
    expect(continued.stderr).toContain(
      `txcript: ${path.join(cwd, ".txcript")}: cannot write: permission denied`,
    );
    expect(continued.status).toBe(1);
    const converted = runUnprivileged(
      ["convert", file, "--to", "pi", "-o", path.join(cwd, "sub", "out.jsonl")],
      cwd,
    );
    expect(converted.stderr).toContain(
      `txcript: ${path.join(cwd, "sub")}: cannot write: permission denied`,
    );
    expect(converted.status).toBe(1);
    await fs.chmod(cwd, 0o755);
  });
});

describe("a convert interrupted mid-write", () => {
  /** A Common document of about 40 MB (distinct texts, so the write takes a while). */
  async function big(): Promise<string> {
    const file = path.join(home.work, "big.common.json");
    const messages = Array.from({ length: 4000 }, (_, index) =>
      text(index % 2 === 0 ? "user" : "assistant", `${index} ${"word ".repeat(2000)}`),
    );
    await fs.writeFile(
      file,
      JSON.stringify({ format: "txcript.common/v2", meta: { id: "big", timestamp: at }, messages }),
    );
    return file;
  }

  for (const signal of ["SIGINT", "SIGTERM"] as const)
    it(`${signal} once the temporary file exists: no temporary file remains`, async () => {
      const file = await big();
      const out = path.join(home.root, "out");
      await fs.mkdir(out);
      const child = spawn(
        process.execPath,
        [bin, "convert", file, "--to", "claude", "-o", path.join(out, "big.jsonl")],
        { env: home.env, stdio: "ignore" },
      );
      const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.on("exit", (code, got) => resolve({ code, signal: got })),
      );
      let ended = false;
      void exited.then(() => {
        ended = true;
      });
      // Wait (by the file system, not a clock) for the temporary file; then signal.
      let seen: string | undefined;
      while (seen === undefined && !ended) {
        seen = readdirSync(out).find((name) => name.endsWith(".tmp"));
        if (seen === undefined) await new Promise((resolve) => setImmediate(resolve));
      }
      expect(seen, "the convert finished before its temporary file was seen").toBeDefined();
      child.kill(signal);
      const result = await exited;
      expect(result.signal).toBe(signal);
      expect(readdirSync(out)).toEqual([]);
    }, 120_000);
});

describe("a FIFO in a store", () => {
  // Where each store looks for sessions (docs/formats/<harness>.md), and a session-like name there.
  const places = (made: Home): [string, string][] => [
    [
      "claude_code",
      path.join(
        made.claudeConfig,
        "projects",
        "-tmp-x",
        "11111111-1111-4111-8111-111111111111.jsonl",
      ),
    ],
    [
      "codex",
      path.join(
        made.home,
        ".codex/sessions/2026/01/01/rollout-2026-01-01T00-00-00-11111111-1111-4111-8111-111111111111.jsonl",
      ),
    ],
    [
      "pi",
      path.join(
        made.home,
        ".pi/agent/sessions/--tmp-x--/2026-01-01T00-00-00-000Z_11111111-1111-4111-8111-111111111111.jsonl",
      ),
    ],
    [
      "gemini_cli",
      path.join(made.home, ".gemini/tmp/abc/chats/session-2026-01-01T00-00-11111111.json"),
    ],
    ["amp", path.join(made.ampThreads, "T-11111111-1111-4111-8111-111111111111.json")],
  ];

  it("list and search finish without waiting on it; a bad regular file there is reported (the control)", async () => {
    for (const [harness, file] of places(home)) {
      await fs.mkdir(path.dirname(file), { recursive: true });
      // The control: the place is one the store reads (a bad file there is named as skipped).
      await fs.writeFile(file, "not a session {\n");
      const control = await txcript(home, ["list", "--from", harness]);
      expect(control.code, control.stderr).toBe(0);
      expect(control.stderr, harness).toContain(`skipped 1 unreadable file (${file}`);
      await fs.rm(file);
      execFileSync("mkfifo", [file]);
      // No writer ever opens the FIFO: a store that opened it to read would wait forever.
      const listed = await txcript(home, ["list", "--from", harness]);
      expect([harness, listed.code, listed.stdout.trim()]).toEqual([
        harness,
        0,
        "no sessions found",
      ]);
    }
    const searched = await txcript(home, ["search", "anything"]);
    expect(searched.code, searched.stderr).toBe(0);
    expect(searched.stderr).toContain('no session matches "anything"');
  }, 120_000);
});
