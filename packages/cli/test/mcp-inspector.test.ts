// `txcript mcp` with an outside client: the MCP Inspector's CLI mode
// (pinned in scripts/real-programs.mjs, installed on demand). It lists the
// tools and calls one against a temporary home; a control shows the same
// call failing against a server that is not an MCP server.
import { spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { programBin, programSkipReason } from "../../../scripts/real-programs.mjs";
import { bin, fixturesRoot, type Home, useHome } from "./e2e.js";

const inspector = programBin("mcp-inspector") as string | undefined;
const skip = programSkipReason("mcp-inspector") as string | undefined;
if (skip) console.warn(`SKIPPED: the MCP Inspector tests: ${skip}`);

let home: Home;
useHome((made) => {
  home = made;
});

const thread = "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001";

function inspect(server: string[], method: string[]) {
  const run = spawnSync(
    inspector as string,
    [
      "--cli",
      ...[
        "-e",
        `AMP_THREADS_DIR=${home.ampThreads}`,
        "-e",
        `CLAUDE_CONFIG_DIR=${home.claudeConfig}`,
      ],
      ...server,
      "--method",
      ...method,
    ],
    { encoding: "utf8", timeout: 90_000, env: { ...home.env }, cwd: home.work },
  );
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe.skipIf(skip !== undefined)(
  `txcript mcp under the MCP Inspector CLI (${skip ?? "pinned"})`,
  () => {
    it("lists the tools and answers a search", async () => {
      await fs.copyFile(
        path.join(fixturesRoot, "amp", "legacy-thread.json"),
        path.join(home.ampThreads, `${thread}.json`),
      );
      const server = [process.execPath, bin, "mcp"];
      const listed = inspect(server, ["tools/list"]);
      expect(listed.status, listed.stderr).toBe(0);
      const tools = (JSON.parse(listed.stdout) as { tools: { name: string }[] }).tools.map(
        (tool) => tool.name,
      );
      expect(tools.sort()).toEqual(["list_sessions", "read_session", "search_sessions"]);
      const called = inspect(server, [
        "tools/call",
        "--tool-name",
        "search_sessions",
        "--tool-arg",
        "query=exclusive",
      ]);
      expect(called.status, called.stderr).toBe(0);
      const result = JSON.parse(called.stdout) as {
        content: { text: string }[];
        isError?: boolean;
      };
      expect(result.isError).toBeFalsy();
      expect(JSON.parse(result.content[0]?.text ?? "[]")[0]).toMatchObject({
        harness: "amp",
        id: thread,
      });
    });

    it("control: the same call fails against a process that is not an MCP server", () => {
      const broken = inspect(
        [process.execPath, "-e", 'process.stdout.write("not json\\n"); process.exit(3)'],
        ["tools/list"],
      );
      expect(broken.status).not.toBe(0);
    });
  },
);
