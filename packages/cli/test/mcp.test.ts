// `txcript mcp` driven by the MCP SDK's own client over stdio: initialize,
// tools/list, each tool on a temporary home's stores, bad arguments and an
// unknown session as tool errors (the server keeps serving), and a read past
// its byte budget refused with ranges that fit.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { bin, fixturesRoot, type Home, useHome } from "./e2e.js";

let home: Home;
useHome((made) => {
  home = made;
});

const thread = "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001";
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function connect(): Promise<Client> {
  await fs.copyFile(
    path.join(fixturesRoot, "amp", "legacy-thread.json"),
    path.join(home.ampThreads, `${thread}.json`),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, "mcp"],
    env: home.env,
    cwd: home.work,
    stderr: "pipe",
  });
  client = new Client({ name: "txcript-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

function text(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const [first] = result.content as { type: string; text: string }[];
  return first?.text ?? "";
}

describe("txcript mcp", () => {
  it("lists its three read-only tools with descriptions and schemas", async () => {
    const mcp = await connect();
    expect(mcp.getServerVersion()?.name).toBe("txcript");
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "list_sessions",
      "read_session",
      "search_sessions",
    ]);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe("object");
    }
  });

  it("lists, searches and reads sessions", async () => {
    const mcp = await connect();
    const listed = JSON.parse(text(await mcp.callTool({ name: "list_sessions", arguments: {} })));
    expect(listed.map((session: { id: string }) => session.id)).toEqual([thread]);
    const hits = JSON.parse(
      text(
        await mcp.callTool({ name: "search_sessions", arguments: { query: "span_includes_last" } }),
      ),
    );
    expect(hits[0]).toMatchObject({ harness: "amp", id: thread, ordinal: 3 });
    const read = await mcp.callTool({ name: "read_session", arguments: { ref: `${thread}#3` } });
    expect(read.isError).toBeFalsy();
    expect(text(read)).toMatch(/^#3 user /m);
    expect(text(read)).not.toMatch(/^#4 /m);
  });

  it("refuses a read past its budget with ranges that fit, never cutting it", async () => {
    const mcp = await connect();
    const whole = text(
      await mcp.callTool({ name: "read_session", arguments: { ref: thread, maxBytes: 2_000_000 } }),
    );
    const refused = await mcp.callTool({
      name: "read_session",
      arguments: { ref: thread, maxBytes: 1000 },
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(
      new RegExp(
        `^refused: ${thread} is ${Buffer.byteLength(whole)} bytes of text, past the budget of 1000 bytes; nothing was cut\\. Read it in parts that fit, e\\.g\\. ${thread}#1`,
      ),
    );
    const first = /e\.g\. (\S+?#[\d-]+)/.exec(text(refused))?.[1] as string;
    const part = await mcp.callTool({
      name: "read_session",
      arguments: { ref: first, maxBytes: 1000 },
    });
    expect(part.isError).toBeFalsy();
  });

  it("answers bad arguments and unknown sessions with tool errors and keeps serving", async () => {
    const mcp = await connect();
    const unknown = await mcp.callTool({
      name: "read_session",
      arguments: { ref: "nope-nothing" },
    });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/nope-nothing/);
    const bad = await mcp.callTool({ name: "search_sessions", arguments: { query: 42 } as never });
    expect(bad.isError).toBe(true);
    const harness = await mcp.callTool({ name: "list_sessions", arguments: { from: "clode" } });
    expect(harness.isError).toBe(true);
    expect(text(harness)).toContain("did you mean");
    const still = await mcp.callTool({ name: "list_sessions", arguments: {} });
    expect(still.isError).toBeFalsy();
  });
});
