// End-to-end `txcript fixtures`: the same seed gives identical bytes, a
// different seed different ones, and every generated file reads back
// through the CLI itself in every harness that has a codec.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { harnessList, loadRegistry } from "../src/harnesses.js";
import { type Home, listFiles, txcript, useHome } from "./e2e.js";

// The whole registry: the CLI loads it on demand (harnesses.ts).
await loadRegistry();

let home: Home;
useHome((fresh) => {
  home = fresh;
});

async function contents(directory: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const file of await listFiles(directory))
    result[file] = await fs.readFile(path.join(directory, file), "utf8");
  return result;
}

describe("txcript fixtures", () => {
  for (const harness of harnessList()) {
    it(`is reproducible and readable for ${harness.id}`, async () => {
      const first = path.join(home.work, "first");
      const second = path.join(home.work, "second");
      const other = path.join(home.work, "other");
      const args = ["fixtures", "--harness", harness.id, "--count", "6"];
      expect((await txcript(home, [...args, "--seed", "42", "--out-dir", first])).code).toBe(0);
      expect((await txcript(home, [...args, "--seed", "42", "--out-dir", second])).code).toBe(0);
      expect((await txcript(home, [...args, "--seed", "43", "--out-dir", other])).code).toBe(0);
      const files = await contents(first);
      expect(Object.keys(files)).toHaveLength(6);
      for (const name of Object.keys(files)) expect(name.endsWith(harness.extension)).toBe(true);
      expect(await contents(second)).toEqual(files);
      expect(Object.values(await contents(other))).not.toEqual(Object.values(files));
      for (const name of Object.keys(files)) {
        const read = await txcript(home, ["export", path.join(first, name), "--from", harness.id]);
        // Nothing on stderr but the loss report (its header and indented lines).
        const other = read.stderr
          .split("\n")
          .filter((line) => !line.startsWith("txcript: losses ") && !line.startsWith("  "));
        expect(other).toEqual([""]);
        expect(read.code).toBe(0);
        expect(JSON.parse(read.stdout).format).toBe("txcript.common/v2");
      }
    });
  }
  it("never overwrites without --force", async () => {
    const out = path.join(home.work, "fixtures");
    const args = [
      "fixtures",
      "--harness",
      "common",
      "--count",
      "2",
      "--seed",
      "1",
      "--out-dir",
      out,
    ];
    expect((await txcript(home, args)).code).toBe(0);
    const [name] = await listFiles(out);
    await fs.writeFile(path.join(out, name as string), "edited");
    const again = await txcript(home, args);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/the target already exists/);
    expect(await fs.readFile(path.join(out, name as string), "utf8")).toBe("edited");
    expect((await txcript(home, [...args, "--force"])).code).toBe(0);
    expect(await fs.readFile(path.join(out, name as string), "utf8")).not.toBe("edited");
  });
  it("refuses a missing or bad --count (exit 2)", async () => {
    const out = path.join(home.work, "fixtures");
    const missing = await txcript(home, [
      "fixtures",
      "--harness",
      "common",
      "--seed",
      "1",
      "--out-dir",
      out,
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("txcript: missing --count (see txcript fixtures --help)\n");
    const bad = await txcript(home, [
      "fixtures",
      "--harness",
      "common",
      "--count",
      "many",
      "--seed",
      "1",
      "--out-dir",
      out,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^txcript: --count must be an integer of at least 1/);
    expect(await listFiles(home.work)).toEqual([]);
  });
});
