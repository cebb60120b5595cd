// `--redact` through every command that writes or shows a session, and
// `view --html`: a session seeded with real-format fake secrets (built from
// pieces here, so the repository holds none) comes out of export, convert to
// every harness, continue and view without any of them, with the count on
// stderr and the report file; the page is one self-contained HTML file.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { harnessList, loadRegistry } from "../src/harnesses.js";
import { type Home, txcript, useHome } from "./e2e.js";

// The whole registry: the CLI loads it on demand (harnesses.ts).
await loadRegistry();

let home: Home;
useHome((made) => {
  home = made;
});

const github = ["gh", "p_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"].join("");
const aws = ["AK", "IA", "QWERTYUIOPASDFGH"].join("");
const at = "2026-01-01T00:00:00.000Z";

async function seeded(): Promise<string> {
  const file = path.join(home.work, "secrets.common.json");
  await fs.writeFile(
    file,
    JSON.stringify({
      format: "txcript.common/v2",
      meta: { id: "secrets", timestamp: at, cwd: home.work },
      messages: [
        {
          role: "user",
          timestamp: at,
          content: [{ type: "text", text: `my token is ${github} <b>bold</b>` }],
        },
        {
          role: "assistant",
          timestamp: at,
          content: [
            {
              type: "tool_use",
              id: "call_1",
              tool: { name: "Bash", input: { command: `export AWS_ACCESS_KEY_ID=${aws}` } },
            },
          ],
        },
        {
          role: "user",
          timestamp: at,
          content: [
            { type: "tool_result", toolUseId: "call_1", content: `set ${aws}`, isError: false },
          ],
        },
        {
          role: "assistant",
          timestamp: at,
          content: [{ type: "text", text: "done </script><script>alert(1)</script>" }],
        },
      ],
    }),
  );
  return file;
}

describe("--redact", () => {
  it("export: every secret gone, ids kept, the count and the report", async () => {
    const file = await seeded();
    const report = path.join(home.work, "report.json");
    const result = await txcript(home, ["export", file, "--redact", "--redact-report", report]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(github);
    expect(result.stdout).not.toContain(aws);
    expect(result.stdout).toContain("[redacted: ");
    expect(result.stdout).toContain('"call_1"');
    expect(result.stderr).toMatch(/^txcript: redacted 3 secrets: /m);
    const written = JSON.parse(await fs.readFile(report, "utf8")) as {
      total: number;
      kinds: Record<string, { messages: number[] }>;
    };
    expect(written.total).toBe(3);
    expect(
      Object.values(written.kinds)
        .flatMap((kind) => kind.messages)
        .sort(),
    ).toEqual([1, 2, 3]);
  });

  it("convert to every harness and continue write no secret", async () => {
    const file = await seeded();
    for (const harness of harnessList()) {
      const out = path.join(home.work, `out-${harness.id}${harness.extension}`);
      const plain = await txcript(home, [
        "convert",
        file,
        "--to",
        harness.id,
        "-o",
        out,
        "--force",
        "--quiet",
      ]);
      expect(plain.code, `${harness.id}: ${plain.stderr}`).toBe(0);
      const leaked = await fs.readFile(out, "utf8");
      expect(
        leaked.includes(github) || leaked.includes(aws),
        `${harness.id} carries the secrets without --redact`,
      ).toBe(true);
      const redacted = await txcript(home, [
        "convert",
        file,
        "--to",
        harness.id,
        "-o",
        out,
        "--force",
        "--redact",
        "--quiet",
      ]);
      expect(redacted.code, `${harness.id}: ${redacted.stderr}`).toBe(0);
      const text = await fs.readFile(out, "utf8");
      expect(text.includes(github) || text.includes(aws), harness.id).toBe(false);
    }
    const continued = await txcript(home, [
      "continue",
      file,
      "--with",
      "claude_code",
      "--no-resume",
      "--redact",
    ]);
    expect(continued.code, continued.stderr).toBe(0);
    const sessions = path.join(home.claudeConfig, "projects");
    const [project] = await fs.readdir(sessions);
    const [session] = await fs.readdir(path.join(sessions, project as string));
    const stored = await fs.readFile(
      path.join(sessions, project as string, session as string),
      "utf8",
    );
    expect(stored).not.toContain(github);
    expect(stored).not.toContain(aws);
  });

  it("view shows no secret", async () => {
    const file = await seeded();
    const view = await txcript(home, ["view", file, "--redact"]);
    expect(view.code, view.stderr).toBe(0);
    expect(view.stdout).not.toContain(github);
    expect(view.stdout).toMatch(/my token is \[redacted: [\w-]+\]/);
  });
});

describe("view --html", () => {
  it("writes one self-contained page, escaped, with anchors by ordinal, redacted when asked", async () => {
    const file = await seeded();
    const page = path.join(home.work, "page.html");
    const result = await txcript(home, ["view", file, "--html", "--redact", "-o", page]);
    expect(result.code, result.stderr).toBe(0);
    const html = await fs.readFile(page, "utf8");
    expect(html.toLowerCase().startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain('id="m4"');
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("&lt;/script&gt;");
    expect(html).not.toMatch(/<link|src="http|href="http/);
    expect(html).not.toContain(github);
    const refused = await txcript(home, ["view", file, "--html", "-o", page]);
    expect(refused.code).toBe(1);
    const stdout = await txcript(home, ["view", `${file}#2-3`, "--html"]);
    expect(stdout.stdout).toContain('id="m2"');
    expect(stdout.stdout).not.toContain('id="m4"');
  });
});
