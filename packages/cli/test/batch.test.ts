// End-to-end `txcript convert <dir> --out-dir DIR`: every session file in a
// tree is converted, a bad file is reported with its location and does not
// stop the batch, and the exit code is 1 when anything failed.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { type Home, hasScript, listFiles, txcript, txcriptOnTty, useHome } from "./e2e.js";
import { sampleCommonText } from "./sample.js";

let home: Home;
useHome((fresh) => {
  home = fresh;
});

async function makeTree(): Promise<string> {
  const input = path.join(home.work, "in");
  await fs.mkdir(path.join(input, "nested"), { recursive: true });
  await fs.writeFile(path.join(input, "a.common.json"), sampleCommonText());
  await fs.writeFile(path.join(input, "nested", "b.json"), sampleCommonText());
  await fs.writeFile(path.join(input, "broken.json"), '{"format": "txcript.common/v1", ');
  await fs.writeFile(path.join(input, "notes.txt"), "not a session");
  await fs.writeFile(path.join(input, ".hidden.json"), "{}");
  return input;
}

describe("txcript convert <dir>", () => {
  it("converts the good files, reports the bad one, and exits 1", async () => {
    const input = await makeTree();
    const out = path.join(home.work, "out");
    const result = await txcript(home, ["convert", input, "--to", "common", "--out-dir", out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^txcript: broken\.json:1:\d+: .+\n/);
    expect(result.stderr).toMatch(/txcript: converted 2 of 3 files into .*out; 1 failed\n$/);
    expect(result.stderr).not.toContain("\u001b[");
    expect(await listFiles(out)).toEqual(["a.common.json", "nested/b.common.json"]);
    expect(await fs.readFile(path.join(out, "nested", "b.common.json"), "utf8")).toBe(
      sampleCommonText(),
    );
  });
  it("exits 0 when every file converts, and keeps existing outputs without --force", async () => {
    const input = await makeTree();
    await fs.rm(path.join(input, "broken.json"));
    const out = path.join(home.work, "out");
    const args = ["convert", input, "--to", "common", "--out-dir", out];
    const first = await txcript(home, args);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/converted 2 of 2 files/);
    const second = await txcript(home, args);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/the target already exists/);
    expect((await txcript(home, [...args, "--force"])).code).toBe(0);
  });
  it.runIf(hasScript)("draws a progress bar on a terminal", async () => {
    const input = await makeTree();
    const out = path.join(home.work, "out");
    const result = await txcriptOnTty(home, ["convert", input, "--to", "common", "--out-dir", out]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/█*░+ \d\/3 /);
  });
  it("asks for --out, not -o, for a directory", async () => {
    const input = await makeTree();
    const result = await txcript(home, ["convert", input, "--to", "common", "-o", "x.json"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/a directory converts into --out-dir DIR/);
    expect(await listFiles(home.work)).not.toContain("x.json");
  });
  it("fails on a directory without session files", async () => {
    const empty = path.join(home.work, "empty");
    await fs.mkdir(empty);
    const result = await txcript(home, ["convert", empty, "--to", "common", "--out-dir", "o"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no \.json or \.jsonl files in the directory/);
  });
});
