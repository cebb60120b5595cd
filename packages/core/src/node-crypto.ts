// node:crypto, loaded on first use. Its loading alone (17 of Node's internal
// modules compiled) is a few milliseconds of every start-up, and the paths
// that import files.ts or uuid.ts (the CLI's dispatcher and `--help`, `view`
// of a session) mostly never hash: only atomic writes (temporary names) and
// id derivation do. packages/cli/test/start-up.test.ts checks `--help` and
// `view` do not load it.
import { createRequire } from "node:module";

type Crypto = typeof import("node:crypto");

let loaded: Crypto | undefined;

export function nodeCrypto(): Crypto {
  loaded ??= createRequire(import.meta.url)("node:crypto") as Crypto;
  return loaded;
}
