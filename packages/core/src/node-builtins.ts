// Node built-ins that only some commands touch, loaded on first use.
// node:crypto alone compiles 17 of Node's internal modules; node:http and
// node:child_process together about 30 (net, dgram, the HTTP parser, stream
// wrappers): a few milliseconds of every start-up that imports them
// statically. Only the harnesses' offline program checks start a stub server
// or a child, only atomic writes and id derivation hash, so `view` and
// `convert` never pay for them. packages/cli/test/start-up.test.ts checks
// which commands load which.
import { createRequire } from "node:module";

type Crypto = typeof import("node:crypto");
type ChildProcess = typeof import("node:child_process");
type Http = typeof import("node:http");

const load = createRequire(import.meta.url);

let crypto: Crypto | undefined;
let childProcess: ChildProcess | undefined;
let http: Http | undefined;

/** node:crypto, required on the first call. */
export function nodeCrypto(): Crypto {
  crypto ??= load("node:crypto") as Crypto;
  return crypto;
}

/** node:child_process, required on the first call. */
export function nodeChildProcess(): ChildProcess {
  childProcess ??= load("node:child_process") as ChildProcess;
  return childProcess;
}

/** node:http, required on the first call. */
export function nodeHttp(): Http {
  http ??= load("node:http") as Http;
  return http;
}
