// RFC 9562 UUID version 5 (SHA-1, name-based) on node:crypto, so harness
// packages derive deterministic ids without another dependency. Writers
// derive one per line, so `uuidV5In(namespace)` keeps the namespace bytes in
// a reused buffer and hashes in one shot (`crypto.hash`, Node ≥ 20.12).
// node:crypto is loaded on the first hash (node-builtins.ts).
import { nodeCrypto } from "./node-builtins.js";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}

type OneShotHash = (algorithm: string, data: Uint8Array, encoding: "hex") => string;
let oneShot: OneShotHash | null | undefined;
const namespaceLength = 16;

function sha1Hex(data: Uint8Array): string {
  if (oneShot === undefined)
    oneShot = (nodeCrypto() as unknown as { hash?: OneShotHash }).hash ?? null;
  return oneShot !== null
    ? oneShot("sha1", data, "hex")
    : nodeCrypto().createHash("sha1").update(data).digest("hex");
}

/** The version-5 UUID function of one namespace (itself a UUID): `name` → lowercase UUID. */
export function uuidV5In(namespace: string): (name: string) => string {
  if (!isUuid(namespace)) throw new TypeError(`namespace is not a UUID: ${namespace}`);
  let scratch = Buffer.alloc(namespaceLength + 256);
  Buffer.from(namespace.replaceAll("-", ""), "hex").copy(scratch, 0);
  return (name) => {
    const most = namespaceLength + name.length * 3;
    if (most > scratch.length) {
      const grown = Buffer.alloc(most);
      scratch.copy(grown, 0, 0, namespaceLength);
      scratch = grown;
    }
    const length = namespaceLength + scratch.write(name, namespaceLength, "utf8");
    const hex = sha1Hex(scratch.subarray(0, length));
    // Version 5 in the 13th digit, the RFC variant (10xx) in the 17th.
    const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };
}

/** The version-5 UUID of `name` in `namespace` (itself a UUID), lowercase. */
export function uuidV5(name: string, namespace: string): string {
  return uuidV5In(namespace)(name);
}
