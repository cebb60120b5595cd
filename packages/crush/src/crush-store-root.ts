// Where Crush keeps its sessions, from the environment alone: the store's
// default root, Crush's global data directory (whose projects.json lists
// every project's database). It imports node:os and node:path only, so
// @txcript/harnesses/roots (the CLI's search fast path) reads every store's
// location through this subpath (`./store-root`) without loading a codec.
import { crushGlobalDataDir } from "./crush-paths.js";

/** The Crush store's location: its global data directory. */
export function crushStoreLocation(env: Record<string, string | undefined> = process.env): {
  root: string;
} {
  return { root: crushGlobalDataDir(env) };
}
