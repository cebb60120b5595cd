import { TxcriptError, uuidV5 } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ampCodec } from "./amp-codec.js";
import {
  AMP_THREAD_ID_NAMESPACE,
  ampThreadId,
  assertSafeThreadId,
  isAmpThreadId,
} from "./amp-ids.js";
import { scanThreadHead, scanThreadStart } from "./amp-scan.js";
import { fileUriFromPath, pathFromFileUri } from "./amp-uri.js";

describe("ampThreadId", () => {
  it("keeps a valid Amp id and maps anything else into T-<uuid v5> in the fixed namespace", () => {
    expect(ampThreadId("T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001")).toBe(
      "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001",
    );
    const claude = "0f8fad5b-d9cb-469f-a165-70867728950e";
    expect(ampThreadId(claude)).toBe(`T-${uuidV5(claude, AMP_THREAD_ID_NAMESPACE)}`);
    // An upper-case Amp id is not the Amp shape: it is re-keyed, not lower-cased.
    expect(ampThreadId("T-0199AAAA-BBBB-7CCC-8DDD-EEEEFFFF0001")).not.toBe(
      "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001",
    );
  });
  it("pins the namespace: the same foreign id always gets the same thread id", () => {
    expect(AMP_THREAD_ID_NAMESPACE).toBe("2b7d0f3c-5e61-4a8e-9f1d-6c3a8b0e4d27");
  });
  it("always yields a safe id, deterministically", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (id) => {
        const mapped = ampThreadId(id);
        expect(isAmpThreadId(mapped)).toBe(true);
        expect(ampThreadId(id)).toBe(mapped);
        expect(ampThreadId(mapped)).toBe(mapped);
      }),
      lawParameters(),
    );
  });
});

describe("assertSafeThreadId", () => {
  const hostile = [
    "../x",
    "T-../../etc/passwd",
    "/etc/passwd",
    "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001/../../x",
    "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001\u0000",
    "T-abcdefg",
    `T-${"a".repeat(10_000)}`,
    "C:\\Windows\\x",
    "",
  ];
  for (const id of hostile) {
    it(`refuses ${JSON.stringify(id.slice(0, 60))}`, () => {
      try {
        assertSafeThreadId(id);
        expect.unreachable();
      } catch (error) {
        expect(TxcriptError.isInstance(error) && error.code).toBe("UNSAFE_PATH");
        expect((error as Error).message.length).toBeLessThan(200);
      }
    });
  }
});

describe("file URIs", () => {
  it("pathFromFileUri(fileUriFromPath(p)) = p for any well-formed path", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (path) => {
        expect(pathFromFileUri(fileUriFromPath(path))).toBe(path);
      }),
      lawParameters(),
    );
  });
  it("reads what Amp writes and leaves other schemes alone", () => {
    expect(pathFromFileUri("file:///Users/dev/my%20proj")).toBe("/Users/dev/my proj");
    expect(pathFromFileUri("https://github.com/x")).toBeUndefined();
    expect(pathFromFileUri("file:///bad%zz%")).toBe("/bad%zz%");
  });
});

describe("scanThreadHead", () => {
  it("agrees with a whole parse on every document fromCommon writes", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), (transcript) => {
        const native = ampCodec.fromCommon(transcript);
        const text = ampCodec.serialize(native);
        const document = native.document;
        const head = scanThreadHead(text);
        expect(head).toEqual({
          v: document.v,
          id: document.id,
          created: document.created,
          ...(document.title === undefined ? {} : { title: document.title }),
          ...(transcript.meta.cwd === undefined
            ? {}
            : {
                cwd: (transcript.meta.cwd as unknown as { toWellFormed(): string }).toWellFormed(),
              }),
          messageCount: document.messages.length,
        });
      }),
      lawParameters(200),
    );
  });
  it("reports only true facts from any cut of a document, and never throws", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), fc.nat(), (transcript, cut) => {
        const text = ampCodec.serialize(ampCodec.fromCommon(transcript));
        const whole = scanThreadHead(text) ?? {};
        const head = scanThreadHead(text.slice(0, cut % (text.length + 1))) ?? {};
        for (const [key, value] of Object.entries(head)) expect(whole).toHaveProperty(key, value);
      }),
      lawParameters(200),
    );
  });
  it("counts messages when the array closes in the head, and finds keys in any order", () => {
    expect(scanThreadHead('{"messages": [ ], "v": 2}')).toEqual({ messageCount: 0, v: 2 });
    expect(scanThreadHead('{"title":"a\\"]","messages":[{"a":"],"},[1,2],"x"],"v":1}')).toEqual({
      title: 'a"]',
      messageCount: 3,
      v: 1,
    });
    expect(scanThreadHead("[1]")).toBeUndefined();
  });
  it("ends strings at the first quote after an even run of backslashes", () => {
    expect(scanThreadHead('{"title":"a\\\\","v":3}')).toEqual({ title: "a\\", v: 3 });
    expect(scanThreadHead('{"title":"\\\\\\"x]","messages":["\\\\",1],"v":1}')).toEqual({
      title: '\\"x]',
      messageCount: 2,
      v: 1,
    });
  });
  it("skips any whitespace /\\s/ knows between tokens, as it always has", () => {
    expect(scanThreadHead('\ufeff{\u00a0"v":\u2028 1,\u3000"messages"\t:\r\n[\u205f]}')).toEqual({
      v: 1,
      messageCount: 0,
    });
  });
});

describe("scanThreadStart", () => {
  const text = '{"v": 1, "title": "t", "messages": [{}, {}], "env": {}}';
  it("is settled once the scan reaches messages, unsettled when cut before it", () => {
    expect(scanThreadStart(text.slice(0, 20))).toEqual({ head: { v: 1 }, settled: false });
    expect(scanThreadStart(text.slice(0, 40))).toEqual({
      head: { v: 1, title: "t" },
      settled: true,
    });
    expect(scanThreadStart(text)).toEqual({
      head: { v: 1, title: "t", messageCount: 2 },
      settled: true,
    });
  });
  it("stops at messages without counting when told the text is not the whole file", () => {
    expect(scanThreadStart(text, { countMessages: false })).toEqual({
      head: { v: 1, title: "t" },
      settled: true,
    });
  });
});
