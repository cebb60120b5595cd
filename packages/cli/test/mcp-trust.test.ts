// Issue 33, items 1 and 5 (the MCP side), against the built `txcript mcp`
// over raw stdio: every bad line gets its JSON-RPC error and the server keeps
// serving (not JSON: -32700; a batch, a malformed message, a line past the
// limit: -32600; an unknown method: -32601); read_session reads only
// sessions the stores discover (never a path: a FIFO, /dev/zero, `../`);
// since/until must be dates; read and search results are redacted unless
// the call says redact: false. See docs/mcp.md and docs/security.md.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bin, fixturesRoot, type Home, txcript, useHome } from "./e2e.js";

let home: Home;
useHome((made) => {
  home = made;
});

const thread = "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001";
const github = ["gh", "p_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"].join("");

type Reply = {
  id: string | number | null;
  result?: { content?: { text: string }[]; isError?: boolean; tools?: unknown[] };
  error?: { code: number; message: string };
};

class RawClient {
  readonly child: ChildProcessWithoutNullStreams;
  #buffer = "";
  #waiting: ((reply: Reply) => void)[] = [];
  #replies: Reply[] = [];
  #next = 1;

  constructor() {
    this.child = spawn(process.execPath, [bin, "mcp"], {
      env: home.env,
      cwd: home.work,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => {
      this.#buffer += chunk;
      for (let end = this.#buffer.indexOf("\n"); end !== -1; end = this.#buffer.indexOf("\n")) {
        const reply = JSON.parse(this.#buffer.slice(0, end)) as Reply;
        this.#buffer = this.#buffer.slice(end + 1);
        const waiter = this.#waiting.shift();
        if (waiter) waiter(reply);
        else this.#replies.push(reply);
      }
    });
  }

  /** Write one raw line and take the next reply. */
  line(text: string): Promise<Reply> {
    const reply = new Promise<Reply>((resolve) => {
      const ready = this.#replies.shift();
      if (ready) resolve(ready);
      else this.#waiting.push(resolve);
    });
    this.child.stdin.write(`${text}\n`);
    return reply;
  }

  request(method: string, params: unknown = {}): Promise<Reply> {
    return this.line(JSON.stringify({ jsonrpc: "2.0", id: this.#next++, method, params }));
  }

  async initialize(): Promise<void> {
    const reply = await this.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    });
    expect(reply.result).toBeDefined();
    this.child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`,
    );
  }

  async call(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ text: string; isError: boolean }> {
    const reply = await this.request("tools/call", { name, arguments: args });
    return {
      text: reply.result?.content?.[0]?.text ?? "",
      isError: reply.result?.isError === true,
    };
  }

  close(): Promise<number | null> {
    return new Promise((resolve) => {
      this.child.on("close", (code) => resolve(code));
      this.child.stdin.end();
    });
  }
}

let client: RawClient | undefined;
afterEach(() => {
  client?.child.kill();
  client = undefined;
});

async function start(): Promise<RawClient> {
  await fs.copyFile(
    path.join(fixturesRoot, "amp", "legacy-thread.json"),
    path.join(home.ampThreads, `${thread}.json`),
  );
  client = new RawClient();
  await client.initialize();
  return client;
}

describe("txcript mcp: every bad line is answered, and the server keeps serving", () => {
  it("parse errors, batches, malformed requests and unknown methods", async () => {
    const mcp = await start();
    expect(await mcp.line("this is not json")).toMatchObject({ id: null, error: { code: -32700 } });
    expect(
      await mcp.line(JSON.stringify([{ jsonrpc: "2.0", id: 90, method: "tools/list" }])),
    ).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await mcp.line("[]")).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await mcp.line(JSON.stringify({ jsonrpc: "2.0", id: 91, method: 5 }))).toMatchObject({
      id: 91,
      error: { code: -32600 },
    });
    expect(await mcp.line(JSON.stringify({ hello: "world" }))).toMatchObject({
      id: null,
      error: { code: -32600 },
    });
    expect(await mcp.line("42")).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await mcp.request("no/such/method")).toMatchObject({ error: { code: -32601 } });
    const tools = await mcp.request("tools/list");
    expect(tools.result?.tools).toHaveLength(3);
    expect(await mcp.close()).toBe(0);
  });

  it("a request line past the limit (12 MiB) is an error, not the end of the server", async () => {
    const mcp = await start();
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 92,
      method: "tools/call",
      params: { name: "search_sessions", arguments: { query: "x".repeat(12 << 20) } },
    });
    expect(await mcp.line(huge)).toMatchObject({ id: null, error: { code: -32600 } });
    const listed = await mcp.call("list_sessions", {});
    expect(listed.isError).toBe(false);
    expect(JSON.parse(listed.text)[0].id).toBe(thread);
    expect(await mcp.close()).toBe(0);
  });
});

describe("txcript mcp: read_session reads only stored sessions", () => {
  it("refuses paths (absolute, ../, a FIFO, /dev/zero, -) at once, and list_sessions still answers", async () => {
    const mcp = await start();
    const copy = path.join(home.work, "outside.json");
    await fs.copyFile(path.join(fixturesRoot, "amp", "legacy-thread.json"), copy);
    const fifo = path.join(home.work, "pipe.jsonl");
    execFileSync("mkfifo", [fifo]);
    const refs = [
      copy,
      path.relative(home.work, copy),
      `../${path.basename(home.work)}/outside.json`,
      fifo,
      fifo,
      fifo,
      fifo,
      fifo,
      "/dev/zero",
      "-",
    ];
    for (const ref of refs) {
      const read = await mcp.call("read_session", { ref });
      expect(read.isError, ref).toBe(true);
      expect(read.text, ref).toMatch(/no file or stored session matches/);
    }
    const listed = await mcp.call("list_sessions", {});
    expect(JSON.parse(listed.text).map((session: { id: string }) => session.id)).toEqual([thread]);
    // The stored session itself reads.
    const stored = await mcp.call("read_session", { ref: `${thread}#1` });
    expect(stored.isError).toBe(false);
    expect(await mcp.close()).toBe(0);
  });

  it("refuses a since or until that is not a date", async () => {
    const mcp = await start();
    for (const args of [{ since: "yesterday" }, { until: "2026-13-45" }, { since: "1" }]) {
      const search = await mcp.call("search_sessions", { query: "span_includes_last", ...args });
      expect(search.isError, JSON.stringify(args)).toBe(true);
      expect(search.text).toMatch(/must be a date or a date-time/);
    }
    const dated = await mcp.call("search_sessions", {
      query: "span_includes_last",
      since: "2000-01-01",
    });
    expect(dated.isError).toBe(false);
    expect(JSON.parse(dated.text)).toHaveLength(1);
    expect(await mcp.close()).toBe(0);
  });
});

describe("txcript mcp: secrets stay out of what it returns (redact, default on)", () => {
  it("list_sessions, read_session and search_sessions redact unless redact: false", async () => {
    const file = path.join(home.work, "secret.common.json");
    const at = "2026-01-01T00:00:00.000Z";
    await fs.writeFile(
      file,
      JSON.stringify({
        format: "txcript.common/v2",
        meta: { id: "secretive", timestamp: at, cwd: home.work, title: `title ${github}` },
        messages: [
          {
            role: "user",
            timestamp: at,
            content: [{ type: "text", text: `porcupine token ${github}` }],
          },
          { role: "assistant", timestamp: at, content: [{ type: "text", text: "noted" }] },
        ],
      }),
    );
    const continued = await txcript(home, ["continue", file, "--with", "pi", "--no-resume"]);
    expect(continued.code, continued.stderr).toBe(0);
    const mcp = await start();
    const listed = await mcp.call("list_sessions", { from: "pi" });
    expect(listed.text).toContain("[redacted: ");
    expect(listed.text).not.toContain(github);
    const rawList = await mcp.call("list_sessions", { from: "pi", redact: false });
    expect(rawList.text).toContain(github);
    const read = await mcp.call("read_session", { ref: "secretive" });
    expect(read.isError).toBe(false);
    expect(read.text).toContain("porcupine token [redacted: ");
    expect(read.text).not.toContain(github);
    const raw = await mcp.call("read_session", { ref: "secretive", redact: false });
    expect(raw.text).toContain(github);
    const hits = await mcp.call("search_sessions", { query: "porcupine" });
    expect(hits.isError).toBe(false);
    expect(hits.text).toContain("porcupine");
    expect(hits.text).not.toContain(github);
    const rawHits = await mcp.call("search_sessions", { query: "porcupine", redact: false });
    expect(rawHits.text).toContain(github);
    expect(await mcp.close()).toBe(0);
  });
});
