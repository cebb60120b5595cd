// `changeset version` in a throwaway copy of the repository: every
// published package has a pending changeset, and versioning produces a
// CHANGELOG per package with independent versions.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishedPackages, repoRoot, run } from "./workspace.js";

let copy: string;
const packages = publishedPackages();

beforeAll(async () => {
  copy = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-changesets-"));
  const { stdout } = await run(
    "git",
    [
      "ls-files",
      "-z",
      "--cached",
      "--others",
      "--exclude-standard",
      ".changeset",
      "packages/*/package.json",
      "package.json",
      "pnpm-workspace.yaml",
    ],
    { cwd: repoRoot },
  );
  for (const file of stdout.split("\0").filter(Boolean)) {
    await fs.mkdir(path.dirname(path.join(copy, file)), { recursive: true });
    await fs.copyFile(path.join(repoRoot, file), path.join(copy, file));
  }
  await run("git", ["init", "-q"], { cwd: copy });
  const changeset = path.join(repoRoot, "node_modules/.bin/changeset");
  await run(changeset, ["version"], { cwd: copy, timeout: 120_000 });
}, 180_000);

afterAll(async () => {
  if (copy) await fs.rm(copy, { recursive: true, force: true });
});

describe("changeset version (in a throwaway copy)", () => {
  it("uses independent versions and public access", async () => {
    const config = JSON.parse(
      await fs.readFile(path.join(repoRoot, ".changeset/config.json"), "utf8"),
    );
    expect(config.fixed).toEqual([]);
    expect(config.linked).toEqual([]);
    expect(config.access).toBe("public");
  });

  for (const found of packages) {
    it(`writes a CHANGELOG and bumps ${found.name}`, async () => {
      const directory = path.join(copy, path.relative(repoRoot, found.directory));
      const changelog = await fs.readFile(path.join(directory, "CHANGELOG.md"), "utf8");
      const manifest = JSON.parse(await fs.readFile(path.join(directory, "package.json"), "utf8"));
      expect(changelog.startsWith(`# ${found.name}\n`)).toBe(true);
      expect(changelog).toContain(`## ${manifest.version}`);
      expect(manifest.version).not.toBe(found.manifest.version);
      expect(changelog).toMatch(/### Minor Changes\n\n- /);
    });
  }

  it("consumes every pending changeset", async () => {
    const left = (await fs.readdir(path.join(copy, ".changeset"))).filter(
      (name) => name.endsWith(".md") && name !== "README.md",
    );
    expect(left).toEqual([]);
  });
});
