// Where the repository, its fixtures and the shared real captures are.
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = path.resolve(packageRoot, "../..");
export const fixturesRoot = path.join(repoRoot, "fixtures");
export const realRoot = path.resolve(repoRoot, "../shared/real");
