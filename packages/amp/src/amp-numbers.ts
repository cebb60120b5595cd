// Finding the numbers of a thread text that JSON.parse cannot give back digit
// for digit (an integer past 2^53 such as 9007199254740993 parses as
// …992). Amp writes with JSON.stringify and never produces one; a file that
// has one keeps its source text (see amp-schema.ts) and toCommon names the
// loss. A validator of nothing: the text was already parsed by parseJson.
import { jsonPath } from "@txcript/core";

/** Where the first inexact number is, and how many there are. */
export interface InexactNumbers {
  path: string;
  count: number;
}

/**
 * A double keeps 15 significant decimal digits exactly, so a number written
 * with fewer than 16 digits (an optional point among them) always reads back
 * as the same value: a text without such a run needs no walk at all.
 */
const longDigitRun = /\d(?:\.?\d){15}/;

function isDigitOrPoint(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x2e;
}

/**
 * Whether `text` may hold a longDigitRun: a stretch of digits and points
 * with 16 or more digits, which every match lies within. Such a stretch is
 * at least 16 characters long, so it covers one of every 16th character:
 * only those are looked at, and the stretch around one only when it is a
 * digit or a point. Several times faster than the regular expression over a
 * thread's whole text, and never false when it would match
 * (amp-numbers.test.ts checks that on random text).
 */
export function mayHoldLongDigitRun(text: string): boolean {
  const length = text.length;
  let at = 15;
  while (at < length) {
    if (!isDigitOrPoint(text.charCodeAt(at))) {
      at += 16;
      continue;
    }
    let start = at;
    while (start > 0 && isDigitOrPoint(text.charCodeAt(start - 1))) start -= 1;
    let end = at + 1;
    while (end < length && isDigitOrPoint(text.charCodeAt(end))) end += 1;
    if (end - start >= 16) {
      let digits = 0;
      for (let index = start; index < end; index++)
        if (text.charCodeAt(index) !== 0x2e) digits += 1;
      if (digits >= 16) return true;
    }
    // On to the first 16th character at or past the stretch's end.
    at += 16 * Math.max(1, Math.ceil((end - at) / 16));
  }
  return false;
}
const numberToken = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const digitCount = /\d/g;

interface Frame {
  array: boolean;
  /** Array: the index of the current element. Object: the current key's raw text span. */
  index: number;
  keyStart: number;
  keyEnd: number;
  /** Object only: the next string is a key. */
  expectKey: boolean;
}

/** Index just past the JSON string literal that starts (with its quote) at `start`. */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return text.length;
    let before = quote - 1;
    while (text.charCodeAt(before) === 0x5c) before -= 1;
    if ((quote - 1 - before) % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

function pathOf(text: string, stack: readonly Frame[]): string {
  return jsonPath(
    stack.map((frame) =>
      frame.array ? frame.index : (JSON.parse(text.slice(frame.keyStart, frame.keyEnd)) as string),
    ),
  );
}

/**
 * The numbers in `text` (valid JSON) with 16 or more digits whose text is
 * not what JSON.stringify writes for the double they parse to, or undefined
 * when there is none. Iterative, so depth costs heap, not stack; keys are
 * decoded only for the first hit's path.
 */
export function findInexactNumbers(text: string): InexactNumbers | undefined {
  if (!mayHoldLongDigitRun(text) || !longDigitRun.test(text)) return undefined;
  const stack: Frame[] = [];
  let found: InexactNumbers | undefined;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    const top = stack[stack.length - 1];
    if (code === 0x7b || code === 0x5b) {
      // { or [
      stack.push({ array: code === 0x5b, index: 0, keyStart: 0, keyEnd: 0, expectKey: true });
      index += 1;
    } else if (code === 0x7d || code === 0x5d) {
      stack.pop();
      index += 1;
    } else if (code === 0x2c) {
      // ,
      if (top?.array) top.index += 1;
      else if (top) top.expectKey = true;
      index += 1;
    } else if (code === 0x22) {
      const end = stringEnd(text, index);
      if (top && !top.array && top.expectKey) {
        top.keyStart = index;
        top.keyEnd = end;
        top.expectKey = false;
      }
      index = end;
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      numberToken.lastIndex = index;
      const token = numberToken.exec(text)?.[0] ?? text[index] ?? "";
      index += Math.max(1, token.length);
      const mantissa = token.replace(/[eE].*$/, "");
      if ((mantissa.match(digitCount)?.length ?? 0) < 16) continue;
      if (JSON.stringify(Number(token)) === token) continue;
      if (found) found.count += 1;
      else found = { path: pathOf(text, stack), count: 1 };
    } else index += 1;
  }
  return found;
}
