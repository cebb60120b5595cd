// Workspace paths ⇄ the `file://` URIs Amp records in `env.initial.trees`.
// Written by hand instead of node:url so any string round-trips exactly (a
// relative or Windows-style cwd, `%`, `#`, `?`, NUL) on every platform.

// RFC 3986 unreserved characters, sub-delimiters, ":", "@" and "/" stay literal.
const literal = /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/;

/** `file://` + the percent-encoded (UTF-8) path. Lone surrogates encode as U+FFFD. */
export function fileUriFromPath(path: string): string {
  let encoded = "";
  for (const character of path) {
    if (literal.test(character)) encoded += character;
    else
      for (const byte of new TextEncoder().encode(character))
        encoded += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return `file://${encoded}`;
}

/** The percent-decoded path of a `file://` URI (authority included when not empty), else undefined. */
export function pathFromFileUri(uri: string): string | undefined {
  if (!uri.startsWith("file://")) return undefined;
  const rest = uri.slice("file://".length);
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let index = 0; index < rest.length; ) {
    const hex = rest.slice(index + 1, index + 3);
    if (rest[index] === "%" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 3;
    } else {
      const codePoint = rest.codePointAt(index) ?? 0;
      const character = String.fromCodePoint(codePoint);
      bytes.push(...encoder.encode(character));
      index += character.length;
    }
  }
  return new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(new Uint8Array(bytes));
}
