// Finds where JSON text first goes wrong, because Node 20's JSON.parse
// messages often carry no position. Runs only after JSON.parse failed;
// iterative (an explicit stack), so hostile nesting cannot overflow it.

const whitespace = new Set([" ", "\t", "\n", "\r"]);

/** Offset of the first character that makes `text` invalid JSON, or -1 if it is valid. */
export function jsonErrorOffset(text: string): number {
  let index = 0;
  const stack: ("array" | "object")[] = [];
  const skip = () => {
    while (index < text.length && whitespace.has(text[index] as string)) index += 1;
  };
  const scanString = (): boolean => {
    index += 1;
    while (index < text.length) {
      const char = text.charCodeAt(index);
      if (char === 0x22) {
        index += 1;
        return true;
      }
      if (char < 0x20) return false;
      if (char === 0x5c) {
        const next = text[index + 1];
        if (next === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(index + 2, index + 6))) return false;
          index += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) index += 2;
        else {
          index += 1;
          return false;
        }
      } else index += 1;
    }
    return false;
  };
  const scanValue = (): boolean => {
    skip();
    const char = text[index];
    if (char === '"') return scanString();
    if (char === "{" || char === "[") {
      stack.push(char === "{" ? "object" : "array");
      index += 1;
      return true;
    }
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      text.slice(index, index + 400),
    );
    if (!literal) return false;
    index += literal[0].length;
    return true;
  };
  // States: expecting a value, or after a value inside a container.
  let expectValue = true;
  let justOpened = false;
  while (true) {
    if (expectValue) {
      skip();
      const top = stack.at(-1);
      if (
        justOpened &&
        ((top === "array" && text[index] === "]") || (top === "object" && text[index] === "}"))
      ) {
        stack.pop();
        index += 1;
        expectValue = false;
        justOpened = false;
        continue;
      }
      if (top === "object") {
        if (text[index] !== '"' || !scanString()) return index;
        skip();
        if (text[index] !== ":") return index;
        index += 1;
      }
      const depth = stack.length;
      if (!scanValue()) return index;
      justOpened = stack.length > depth;
      expectValue = justOpened;
      continue;
    }
    skip();
    const top = stack.at(-1);
    if (top === undefined) return index < text.length ? index : -1;
    const char = text[index];
    if (char === ",") {
      index += 1;
      expectValue = true;
      justOpened = false;
    } else if ((top === "array" && char === "]") || (top === "object" && char === "}")) {
      stack.pop();
      index += 1;
    } else return index;
  }
}
