// The search keeper (src/search-keeper.ts, src/search-client.ts): a
// background txcript that holds the index open and watches the stores'
// directories, answering `txcript search <words…> [--json]` over a socket.
// What it prints must be what the full command prints, after any change to
// the stores made before the search (checked against the full command run
// right after, and against what the change put there); it must follow new
// directories; and it must go away by itself. TXCRIPT_SEARCH_KEEPER=only
// exits 125 when no keeper answered (the control that one did);
// TXCRIPT_SEARCH_KEEPER_TEST=no-watch starts a keeper that ignores its
// watchers (the control that these checks catch a keeper that does not watch).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, promises as fs } from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bin, fixturesRoot, type Home, type RunResult, txcript, useHome } from "./e2e.js";

const linux = process.platform === "linux";
if (!linux) console.warn("SKIPPED: the search keeper runs on Linux only");

let home: Home;
useHome((made) => {
  home = made;
});

const keepers: ChildProcess[] = [];
afterEach(async () => {
  for (const keeper of keepers.splice(0)) {
    if (keeper.exitCode === null && keeper.signalCode === null) {
      keeper.kill("SIGKILL");
      await new Promise((resolve) => keeper.once("exit", resolve));
    }
  }
});

const thread = "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001";
const otherThread = "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0002";
const session = "5e551011-0000-4000-8000-000000000006";

/** The keeper's settings: asked, and a socket directory inside the test's home. */
const keeperEnv = () => ({
  TXCRIPT_SEARCH_KEEPER: "1",
  XDG_RUNTIME_DIR: path.join(home.root, "run"),
});
const viaKeeper = (extra: Record<string, string> = {}) => ({
  env: { ...keeperEnv(), TXCRIPT_SEARCH_KEEPER: "only", ...extra },
});
const withoutKeeper = (extra: Record<string, string> = {}) => ({
  env: { TXCRIPT_SEARCH_KEEPER: "0", TXCRIPT_SEARCH_FAST: "0", ...extra },
});

const ampFile = (id: string) => path.join(home.ampThreads, `${id}.json`);
const projectFile = (project: string) =>
  path.join(home.claudeConfig, "projects", project, `${session}.jsonl`);

/** An Amp thread, and the index built over it without a keeper. */
async function stock(): Promise<void> {
  await fs.copyFile(path.join(fixturesRoot, "amp", "legacy-thread.json"), ampFile(thread));
  const built = await txcript(home, ["search", "exclusive"]);
  expect(built.code, built.stderr).toBe(0);
  expect(built.stdout).toContain(thread);
}

async function eventually(check: () => Promise<boolean>, what: string, ms = 15_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting until ${what}`);
}

/** Start a keeper for the home (as a search would, but held here) and wait until it answers. */
async function startKeeper(extra: Record<string, string> = {}): Promise<ChildProcess> {
  const keeper = spawn(process.execPath, [bin, "__search-keeper"], {
    env: { ...home.env, ...keeperEnv(), ...extra },
    stdio: "ignore",
  });
  keepers.push(keeper);
  await eventually(
    async () => (await txcript(home, ["search", "keeperprobe"], viaKeeper(extra))).code !== 125,
    "the keeper answers",
  );
  return keeper;
}

/** The sockets in the keeper's directory. */
async function sockets(): Promise<string[]> {
  const names = await fs.readdir(path.join(home.root, "run", "txcript")).catch(() => []);
  return names.filter((name) => name.endsWith(".sock"));
}

/**
 * Stop the keeper a search started (detached: no handle here) the way it stops by itself, by
 * deleting its index, and wait until its socket is gone, so the test's home is removed after it.
 */
async function stopStartedKeeper(
  index = path.join(home.home, ".cache", "txcript", "search.sqlite"),
): Promise<void> {
  for (const suffix of ["", "-wal", "-shm"]) await fs.rm(`${index}${suffix}`, { force: true });
  await eventually(async () => (await sockets()).length === 0, "the keeper removed its socket");
}

/** The same search through the keeper, then through the full command: both outputs. */
async function both(args: string[], env: Record<string, string> = {}) {
  const kept = await txcript(home, ["search", ...args], viaKeeper(env));
  const full = await txcript(home, ["search", ...args], withoutKeeper(env));
  return { kept, full };
}

function expectSame(kept: RunResult, full: RunResult, what: string) {
  expect(kept.code, `${what}: ${kept.stderr}`).toBe(full.code);
  expect(kept.stdout, what).toBe(full.stdout);
  expect(kept.stderr, what).toBe(full.stderr);
}

/** Append a user message with `text` to the Claude Code session at `file`. */
async function appendMessage(file: string, text: string, uuid: string): Promise<void> {
  const lines = (await fs.readFile(file, "utf8")).trimEnd().split("\n");
  const last = JSON.parse(lines.at(-1) as string) as Record<string, unknown>;
  const line = {
    parentUuid: last.uuid,
    isSidechain: false,
    userType: "external",
    cwd: last.cwd,
    sessionId: last.sessionId,
    version: last.version,
    type: "user",
    message: { role: "user", content: text },
    uuid,
    timestamp: "2026-01-02T19:05:00.000Z",
  };
  await fs.appendFile(file, `${JSON.stringify(line)}\n`);
}

async function placeSession(project: string): Promise<string> {
  const file = projectFile(project);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.copyFile(path.join(fixturesRoot, "claude-code", "thinking.jsonl"), file);
  return file;
}

describe.runIf(linux)("txcript search's keeper", () => {
  it("answers what the full command prints, and only while it runs", async () => {
    await stock();
    // Control: no keeper yet.
    expect((await txcript(home, ["search", "exclusive"], viaKeeper())).code).toBe(125);
    const keeper = await startKeeper();
    const cases: [string[], Record<string, string>][] = [
      [["exclusive"], {}],
      [["SPAN_INCLUDES_LAST"], {}],
      [["Régression", "TEST"], {}],
      [["exclusive", "--json"], {}],
      [["--json", "range"], {}],
      [["no-such-word-anywhere"], {}],
      [["nosuchwordanywhere", "--json"], {}],
      [["exclusive"], { FORCE_COLOR: "1" }],
    ];
    for (const [args, env] of cases) {
      const { kept, full } = await both(args, env);
      expectSame(kept, full, args.join(" "));
    }
    const colour = await txcript(home, ["search", "exclusive"], viaKeeper({ FORCE_COLOR: "1" }));
    expect(colour.stdout).toContain("\u001b[1;33m");
    expect((await txcript(home, ["search", "exclusive"], viaKeeper())).stdout).toContain(thread);
    // Options it does not take are left to the command.
    expect((await txcript(home, ["search", "exclusive", "--limit", "1"], viaKeeper())).code).toBe(
      125,
    );
    // Another environment (another store root) is not this keeper's.
    expect(
      (
        await txcript(
          home,
          ["search", "exclusive"],
          viaKeeper({ CODEX_HOME: path.join(home.root, "codex-elsewhere") }),
        )
      ).code,
    ).toBe(125);
    // A request made for another configuration (as a hash collision would bring) is sent back.
    const [socketName] = (await fs.readdir(path.join(home.root, "run", "txcript"))).filter((name) =>
      name.endsWith(".sock"),
    );
    const raw = async (config: string) =>
      new Promise<string>((resolve, reject) => {
        const connection = net.createConnection(
          path.join(home.root, "run", "txcript", `${socketName}`),
        );
        let text = "";
        connection.setEncoding("utf8");
        connection.on("error", reject);
        connection.on("data", (chunk: string) => {
          text += chunk;
        });
        connection.on("close", () => resolve(text));
        connection.write(
          `${JSON.stringify({ v: 1, config, query: "exclusive", json: true, stdoutTTY: false, stderrTTY: false })}\n`,
        );
      });
    expect(await raw("another configuration")).toBe('{"ack":1}\n{"fallback":1}\n');
    keeper.kill("SIGKILL");
    await new Promise((resolve) => keeper.once("exit", resolve));
    // Its socket is left behind: nothing answers there, and a search without it still works.
    expect((await txcript(home, ["search", "exclusive"], viaKeeper())).code).toBe(125);
    const after = await txcript(home, ["search", "exclusive"], { env: keeperEnv() });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toContain(thread);
    // That search started a keeper in the socket's place: once it answers, it goes with its index.
    await eventually(
      async () => (await txcript(home, ["search", "exclusive"], viaKeeper())).code === 0,
      "the keeper the search started answers",
    );
    await stopStartedKeeper();
  });

  it("follows files written in place, appended to, added, deleted and made unreadable", async () => {
    await stock();
    const file = await placeSession("-work-app");
    expect((await txcript(home, ["search", "1009"])).stdout).toContain(session);
    await startKeeper();

    // Written in place (an Amp thread is one JSON document).
    const text = await fs.readFile(ampFile(thread), "utf8");
    await fs.writeFile(ampFile(thread), text.replace("exclusive", "exclusive quokkaone"));
    let { kept, full } = await both(["quokkaone"]);
    expect(kept.stdout).toContain(thread);
    expectSame(kept, full, "written in place");

    // Appended to (a Claude Code session is JSONL).
    await appendMessage(file, "and now quokkatwo", "f6000000-0000-4000-8000-000000000007");
    ({ kept, full } = await both(["quokkatwo"]));
    expect(kept.stdout).toContain(`${session}#`);
    expectSame(kept, full, "appended to");

    // A file added beside the others.
    await fs.writeFile(ampFile(otherThread), text.replace("exclusive", "quokkathree"));
    ({ kept, full } = await both(["quokkathree", "--json"]));
    expect((JSON.parse(kept.stdout) as { id: string }[]).map((hit) => hit.id)).toContain(
      otherThread,
    );
    expectSame(kept, full, "added");

    // Deleted.
    await fs.rm(ampFile(otherThread));
    ({ kept, full } = await both(["quokkathree"]));
    expect(kept.stdout).toBe("");
    expectSame(kept, full, "deleted");

    // Made unreadable: its hits go, and the note says why.
    await fs.writeFile(file, "{ not json\n");
    ({ kept, full } = await both(["1009"]));
    expect(kept.stdout).not.toContain(session);
    expect(kept.stderr).toContain("could not index 1 session");
    expect(kept.code).toBe(0);
    expect(kept.stdout).toBe(full.stdout);
  });

  it("watches a directory made after it started", async () => {
    await stock();
    await startKeeper();
    const file = await placeSession("-work-new");
    let { kept, full } = await both(["1009"]);
    expect(kept.stdout).toContain(session);
    expectSame(kept, full, "a new project directory");
    // Nothing changed since: the same answer.
    ({ kept, full } = await both(["1009"]));
    expectSame(kept, full, "nothing changed");
    // Written in the new directory: seen only if that directory is watched now.
    await appendMessage(file, "quokkafour in a new place", "f6000000-0000-4000-8000-000000000007");
    ({ kept, full } = await both(["quokkafour"]));
    expect(kept.stdout).toContain(session);
    expectSame(kept, full, "written in the new directory");
  });

  it("watches a directory removed and made again under the same name", async () => {
    await stock();
    const file = await placeSession("-work-again");
    expect((await txcript(home, ["search", "1009"])).stdout).toContain(session);
    await startKeeper();
    await fs.rm(path.dirname(file), { recursive: true });
    await placeSession("-work-again");
    await appendMessage(file, "quokkafive, the first time", "f6000000-0000-4000-8000-000000000007");
    let { kept, full } = await both(["quokkafive"]);
    expect(kept.stdout).toContain(session);
    expectSame(kept, full, "the directory made again");
    ({ kept, full } = await both(["quokkafive"]));
    expectSame(kept, full, "nothing changed");
    // Written in the new directory: seen only if the watch moved to it.
    await appendMessage(file, "quokkasix after", "f6000000-0000-4000-8000-000000000008");
    ({ kept, full } = await both(["quokkasix"]));
    expect(kept.stdout).toContain(session);
    expectSame(kept, full, "written in the directory made again");
  });

  it("control: a keeper that ignores its watchers answers stale, which these checks catch", async () => {
    await stock();
    await startKeeper({ TXCRIPT_SEARCH_KEEPER_TEST: "no-watch" });
    const text = await fs.readFile(ampFile(thread), "utf8");
    await fs.writeFile(ampFile(thread), text.replace("exclusive", "exclusive quokkaone"));
    const kept = await txcript(
      home,
      ["search", "quokkaone"],
      viaKeeper({ TXCRIPT_SEARCH_KEEPER_TEST: "no-watch" }),
    );
    expect(kept.code).toBe(0);
    expect(kept.stdout).not.toContain(thread);
    const full = await txcript(home, ["search", "quokkaone"], withoutKeeper());
    expect(full.stdout).toContain(thread);
  });

  it("is started by a search it did not answer, and exits once its index is deleted", async () => {
    await stock();
    const first = await txcript(home, ["search", "exclusive"], { env: keeperEnv() });
    expect(first.code, first.stderr).toBe(0);
    await eventually(
      async () => (await txcript(home, ["search", "exclusive"], viaKeeper())).code === 0,
      "the keeper a search started answers",
    );
    expect(await sockets()).toHaveLength(1);
    await stopStartedKeeper();
    expect((await txcript(home, ["search", "exclusive"], viaKeeper())).code).toBe(125);
  });

  it("serves a search whose index is named relative to its directory", async () => {
    await stock();
    const relative = { TXCRIPT_SEARCH_INDEX: "cache/index.sqlite" };
    const first = await txcript(home, ["search", "exclusive"], {
      env: { ...keeperEnv(), ...relative },
    });
    expect(first.code, first.stderr).toBe(0);
    expect(existsSync(path.join(home.work, "cache", "index.sqlite"))).toBe(true);
    await eventually(
      async () => (await txcript(home, ["search", "exclusive"], viaKeeper(relative))).code === 0,
      "the keeper a search started answers",
    );
    const kept = await txcript(home, ["search", "exclusive"], viaKeeper(relative));
    expect(kept.stdout).toContain(thread);
    await stopStartedKeeper(path.join(home.work, "cache", "index.sqlite"));
  });

  it("exits when idle, and leaves the socket to the keeper already serving", async () => {
    await stock();
    const first = await startKeeper();
    // A second keeper for the same index, stores and settings exits at once.
    const second = spawn(process.execPath, [bin, "__search-keeper"], {
      env: { ...home.env, ...keeperEnv() },
      stdio: "ignore",
    });
    keepers.push(second);
    const secondExit = await new Promise((resolve) => second.once("exit", resolve));
    expect(secondExit).toBe(0);
    expect(first.exitCode).toBe(null);
    expect((await txcript(home, ["search", "exclusive"], viaKeeper())).stdout).toContain(thread);
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));
    // Idle for a second: it exits by itself.
    const idle = await startKeeper({ TXCRIPT_SEARCH_KEEPER_IDLE: "1" });
    const code = await new Promise((resolve) => idle.once("exit", resolve));
    expect(code).toBe(0);
    expect((await txcript(home, ["search", "exclusive"], viaKeeper())).code).toBe(125);
  });

  it("uses no socket directory that others can enter", async () => {
    await stock();
    await startKeeper();
    const directory = path.join(home.root, "run", "txcript");
    expect(((await fs.stat(directory)).mode & 0o777).toString(8)).toBe("700");
    await fs.chmod(directory, 0o755);
    expect((await txcript(home, ["search", "exclusive"], viaKeeper())).code).toBe(125);
    await fs.chmod(directory, 0o700);
    expect((await txcript(home, ["search", "exclusive"], viaKeeper())).code).toBe(0);
    expect(existsSync(directory)).toBe(true);
  });
  it("is off unless asked: a search with TXCRIPT_SEARCH_KEEPER unset starts none", async () => {
    await stock();
    const plain = await txcript(home, ["search", "exclusive"], {
      env: { TXCRIPT_SEARCH_KEEPER: undefined, XDG_RUNTIME_DIR: path.join(home.root, "run") },
    });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain(thread);
    // A keeper it started would have made its socket well within this (one does in ~0.3 s).
    await expect(
      eventually(async () => (await sockets()).length > 0, "a socket appears", 5_000),
    ).rejects.toThrow(/timed out/);
    expect((await txcript(home, ["search", "exclusive"], viaKeeper())).code).toBe(125);
  });

  it("starts at most one keeper per index, whatever the other TXCRIPT_ settings", async () => {
    await stock();
    for (const extra of [{}, { TXCRIPT_FOO: "1" }, { TXCRIPT_FOO: "2" }, { TXCRIPT_BAR: "x" }]) {
      const result = await txcript(home, ["search", "exclusive"], {
        env: { ...keeperEnv(), ...extra },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(thread);
    }
    await eventually(
      async () => (await txcript(home, ["search", "exclusive"], viaKeeper())).code === 0,
      "the keeper a search started answers",
    );
    // An unknown setting changes nothing a search reads: the same keeper answers it.
    expect(
      (await txcript(home, ["search", "exclusive"], viaKeeper({ TXCRIPT_FOO: "3" }))).stdout,
    ).toContain(thread);
    // Every other search's keeper found the lock held and went away.
    await eventually(async () => {
      const names = await fs.readdir(path.join(home.root, "run", "txcript"));
      return names.filter((name) => name.endsWith(".lock")).length === 1;
    }, "one lock");
    expect(await sockets()).toHaveLength(1);
    await stopStartedKeeper();
  });

  it.runIf(linux)(
    "leaves a stopped keeper's socket alone: a second keeper exits, the first answers when resumed",
    async () => {
      await stock();
      const first = await startKeeper();
      first.kill("SIGSTOP");
      try {
        const second = spawn(process.execPath, [bin, "__search-keeper"], {
          env: { ...home.env, ...keeperEnv() },
          stdio: "ignore",
        });
        keepers.push(second);
        await eventually(async () => second.exitCode !== null, "the second keeper exits");
        expect(second.exitCode).toBe(0);
      } finally {
        first.kill("SIGCONT");
      }
      const kept = await txcript(home, ["search", "exclusive"], viaKeeper());
      expect(kept.code, kept.stderr).toBe(0);
      expect(kept.stdout).toContain(thread);
      expect(first.exitCode).toBe(null);
    },
  );

  it.runIf(linux)(
    "never removes a socket it does not own: one put in its place stays after it exits",
    async () => {
      await stock();
      const keeper = await startKeeper();
      const [name] = await sockets();
      const socket = path.join(home.root, "run", "txcript", name as string);
      // Another process's socket, put at the keeper's name (as a successor would).
      const other = net.createServer((connection) => connection.end("other\n"));
      const made = path.join(home.root, "run", "txcript", "other.sock");
      await new Promise<void>((resolve) => other.listen(made, resolve));
      try {
        await fs.rename(made, socket);
        const code = await new Promise((resolve) => keeper.once("exit", resolve));
        expect(code).toBe(0);
        expect(existsSync(socket)).toBe(true);
        const answer = await new Promise<string>((resolve, reject) => {
          const connection = net.createConnection(socket);
          let text = "";
          connection.on("data", (chunk) => {
            text += chunk.toString();
          });
          connection.on("end", () => resolve(text));
          connection.on("error", reject);
        });
        expect(answer).toBe("other\n");
      } finally {
        await new Promise((resolve) => other.close(resolve));
        await fs.rm(socket, { force: true });
      }
    },
  );

  it("says once on stderr when the socket directory is not private, and searches without a keeper", async () => {
    await stock();
    const directory = path.join(home.root, "run", "txcript");
    await fs.mkdir(directory, { recursive: true });
    await fs.chmod(directory, 0o777);
    const result = await txcript(home, ["search", "exclusive"], { env: keeperEnv() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(thread);
    expect(result.stderr.match(/warning: no search keeper/g)).toHaveLength(1);
    expect(result.stderr).toContain(`${directory} lets other users in (mode 777, not 700)`);
    // No keeper was started there.
    expect(await sockets()).toEqual([]);
  });
});
