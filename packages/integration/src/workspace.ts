// Facts about the workspace the repository-level tests share: where the
// repo is, which packages are published, and how to run their tools.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
export const run = promisify(execFile);

export interface WorkspacePackage {
  name: string;
  directory: string;
  manifest: Record<string, unknown> & { name: string; version: string; private?: boolean };
}

/** Every package under packages/ that is published (not private). */
export function publishedPackages(): WorkspacePackage[] {
  const packagesDirectory = path.join(repoRoot, "packages");
  return readdirSync(packagesDirectory)
    .map((entry) => path.join(packagesDirectory, entry))
    .filter((directory) => existsSync(path.join(directory, "package.json")))
    .map((directory) => {
      const manifest = JSON.parse(readFileSync(path.join(directory, "package.json"), "utf8"));
      return { name: manifest.name as string, directory, manifest };
    })
    .filter((found) => found.manifest.private !== true)
    .sort((left, right) => left.name.localeCompare(right.name));
}

/** A bin installed in this package's node_modules. */
export function localBin(name: string): string {
  return fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));
}

/** Fails with a clear message when a package has not been built (run `pnpm build`). */
export function assertBuilt(found: WorkspacePackage): void {
  if (!existsSync(path.join(found.directory, "dist"))) {
    throw new Error(
      `${found.name} has no dist/: run \`pnpm build\` first (the root \`pnpm test\` does)`,
    );
  }
}
