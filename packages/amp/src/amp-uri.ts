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

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/** The percent-decoded path of a `file://` URI (authority included when not empty), else undefined. */
export function pathFromFileUri(uri: string): string | undefined {
  if (!uri.startsWith("file://")) return undefined;
  const rest = uri.slice("file://".length);
  // Without escapes the result is the text through UTF-8 and back: itself,
  // with lone surrogates as U+FFFD. (Discovery decodes one URI per thread.)
  if (!rest.includes("%")) return (rest as unknown as { toWellFormed(): string }).toWellFormed();
  const bytes: number[] = [];
  let literalStart = 0;
  const flushLiteral = (end: number) => {
    if (end > literalStart)
      for (const byte of encoder.encode(rest.slice(literalStart, end))) bytes.push(byte);
  };
  for (let index = rest.indexOf("%"); index !== -1; index = rest.indexOf("%", index + 1)) {
    const hex = rest.slice(index + 1, index + 3);
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) continue;
    flushLiteral(index);
    bytes.push(Number.parseInt(hex, 16));
    literalStart = index + 3;
    index += 2;
  }
  flushLiteral(rest.length);
  return decoder.decode(new Uint8Array(bytes));
}
