/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The page in real headless Chromium (Debian's /usr/bin/chromium through
// puppeteer-core): no console error, no network request, every message in
// the DOM, every fold opening on click, no script from hostile content, and
// screenshots of a small and a long session, light and dark.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Transcript } from "@txcript/core";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHtml } from "./html-render.js";
import { hostileSession, hostileStrings } from "./test-hostile.js";
import { readPng } from "./test-png.js";
import { commonFixtures, longSession, smallSession } from "./test-support.js";

const chromium = "/usr/bin/chromium";
const skipReason = existsSync(chromium)
  ? undefined
  : `${chromium} is absent (install it with: apt-get install -y chromium)`;
if (skipReason !== undefined) console.warn(`html browser tests skipped: ${skipReason}`);

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outputDir = path.join(packageDir, "test-output");
const docsImage = path.resolve(packageDir, "../../docs/images/session-page.png");

let browser: Browser;
let profile: string;

interface Observed {
  page: Page;
  errors: string[];
  requests: string[];
  dialogs: string[];
}

function writePage(name: string, html: string): string {
  mkdirSync(outputDir, { recursive: true });
  const file = path.join(outputDir, name);
  writeFileSync(file, html);
  return file;
}

async function open(
  file: string,
  options: { width?: number; height?: number; scale?: number; dark?: boolean } = {},
): Promise<Observed> {
  const page = await browser.newPage();
  const observed: Observed = { page, errors: [], requests: [], dialogs: [] };
  page.on("console", (message) => {
    if (message.type() === "error") observed.errors.push(message.text());
  });
  page.on("pageerror", (error) => observed.errors.push(String(error)));
  page.on("request", (request) => observed.requests.push(request.url()));
  page.on("dialog", (dialog) => {
    observed.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.setViewport({
    width: options.width ?? 1100,
    height: options.height ?? 900,
    deviceScaleFactor: options.scale ?? 1,
  });
  await page.emulateMediaFeatures([
    { name: "prefers-color-scheme", value: options.dark ? "dark" : "light" },
  ]);
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  return observed;
}

/** Requests other than the page itself and its data: images. */
function outsideRequests(observed: Observed, file: string): string[] {
  const self = pathToFileURL(file).href;
  return observed.requests.filter((url) => url !== self && !url.startsWith("data:"));
}

const withoutPolicy = (html: string) =>
  html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, "");

describe.skipIf(skipReason !== undefined)(
  `the page in headless Chromium${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    beforeAll(async () => {
      profile = mkdtempSync(path.join(tmpdir(), "txcript-chromium-"));
      browser = await puppeteer.launch({
        executablePath: chromium,
        headless: true,
        userDataDir: profile,
        timeout: 60_000,
        args: [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
        ],
      });
    });
    afterAll(async () => {
      await browser?.close();
      if (profile) rmSync(profile, { recursive: true, force: true });
    });

    it("the request check sees a request (control: a page that loads an outside image)", async () => {
      const file = writePage(
        "control-request.html",
        '<!doctype html><img src="http://127.0.0.1:9/x.png">',
      );
      const observed = await open(file);
      expect(outsideRequests(observed, file)).toEqual(["http://127.0.0.1:9/x.png"]);
      await observed.page.close();
    });

    for (const [name, transcript] of [
      ["small", smallSession()],
      ["long", longSession(200)],
    ] as [string, Transcript][]) {
      it(`${name} session: no console error, no request, every message in the DOM (with and without the CSP)`, async () => {
        for (const [variant, html] of [
          ["", renderHtml(transcript)],
          ["-no-csp", withoutPolicy(renderHtml(transcript))],
        ]) {
          const file = writePage(`${name}${variant}.html`, html as string);
          const observed = await open(file);
          expect(observed.errors).toEqual([]);
          expect(outsideRequests(observed, file)).toEqual([]);
          const present = await observed.page.evaluate((count: number) => {
            const missing: number[] = [];
            for (let ordinal = 1; ordinal <= count; ordinal += 1)
              if (document.getElementById(`m${ordinal}`)?.matches("article.message") !== true)
                missing.push(ordinal);
            return {
              missing,
              articles: document.querySelectorAll("section.messages > article.message").length,
            };
          }, transcript.messages.length);
          expect(present).toEqual({ missing: [], articles: transcript.messages.length });
          const texts = transcript.messages.map((message) =>
            message.content.flatMap((block) =>
              block.type === "text" ? [block.text.replace(/```[^\n]*\n?/g, "")] : [],
            ),
          );
          const shown = await observed.page.evaluate(
            (all: string[][]) =>
              all.map((list, index) => {
                const text = document.getElementById(`m${index + 1}`)?.textContent ?? "";
                return list.every((piece) =>
                  piece.split("\n").every((line) => text.includes(line)),
                );
              }),
            texts,
          );
          expect(shown.every(Boolean)).toBe(true);
          await observed.page.close();
        }
      });
    }

    it("every Common fixture in the repository: no console error, no request, every message", async () => {
      const fixtures = commonFixtures();
      expect(fixtures.length).toBeGreaterThan(10);
      for (const { name, transcript } of fixtures) {
        const file = writePage("fixture.html", renderHtml(transcript));
        const observed = await open(file);
        const count = await observed.page.evaluate(
          () => document.querySelectorAll("section.messages > article.message[id^='m']").length,
        );
        expect({
          name,
          count,
          errors: observed.errors,
          requests: outsideRequests(observed, file),
        }).toEqual({
          name,
          count: transcript.messages.length,
          errors: [],
          requests: [],
        });
        await observed.page.close();
      }
    });

    it("every kind of fold is closed at first and opens on click", async () => {
      const file = writePage("small.html", renderHtml(smallSession()));
      const { page, errors } = await open(file);
      const kinds = [
        "thinking",
        "result",
        "show-all",
        "content",
        "subagent",
        "context-body",
        "summary",
      ];
      for (const kind of kinds) {
        const state = () =>
          page.$eval(`details.${kind}`, (details) => ({
            open: (details as HTMLDetailsElement).open,
            visible: [...details.children]
              .filter((child) => child.tagName !== "SUMMARY")
              .some((child) => (child as HTMLElement).checkVisibility()),
          }));
        // Open the folds around it first (a "show all" sits inside a result).
        await page.$eval(`details.${kind}`, (details) => {
          for (
            let parent = details.parentElement?.closest("details");
            parent;
            parent = parent.parentElement?.closest("details") ?? null
          )
            (parent as HTMLDetailsElement).open = true;
        });
        expect(await state(), kind).toEqual({ open: false, visible: false });
        await page.click(`details.${kind} > summary`);
        expect(await state(), kind).toEqual({ open: true, visible: true });
      }
      expect(errors).toEqual([]);
      await page.close();
    });

    it("hostile content renders as text and runs no script, even without the CSP", async () => {
      for (const [variant, html] of [
        ["", renderHtml(hostileSession())],
        ["-no-csp", withoutPolicy(renderHtml(hostileSession()))],
      ]) {
        const file = writePage(`hostile${variant}.html`, html as string);
        const observed = await open(file);
        // Hover and open everything, so handlers would have their chance.
        await observed.page.$$eval("details", (all) => {
          for (const details of all) (details as HTMLDetailsElement).open = true;
        });
        await observed.page.mouse.move(200, 200);
        await observed.page.mouse.move(400, 500);
        const found = await observed.page.evaluate(() => ({
          pwned: (window as unknown as { __pwned?: number }).__pwned ?? null,
          injected: document.querySelectorAll(
            "script, iframe, svg, b, [onerror], [onload], [onmouseover], [srcdoc], a[href^='javascript']",
          ).length,
          styles: document.querySelectorAll("style").length,
          images: [...document.images].map((image) => image.src.slice(0, 5)),
          title: document.title,
          text: document.body.textContent ?? "",
        }));
        expect(found.pwned).toBeNull();
        expect(found.injected).toBe(0);
        expect(found.styles).toBe(1);
        expect(found.images).toEqual([]);
        expect(found.title).toBe(hostileStrings[1]);
        for (const hostile of hostileStrings) expect(found.text).toContain(hostile);
        expect(observed.dialogs).toEqual([]);
        expect(observed.errors).toEqual([]);
        expect(outsideRequests(observed, file)).toEqual([]);
        await observed.page.close();
      }
    });

    it("screenshots of a small and a long session, light and dark, at the expected sizes", async () => {
      const shots = [
        {
          name: "small-light",
          transcript: smallSession(),
          dark: false,
          width: 390,
          height: 844,
          scale: 2,
        },
        {
          name: "small-dark",
          transcript: smallSession(),
          dark: true,
          width: 390,
          height: 844,
          scale: 2,
        },
        {
          name: "long-light",
          transcript: longSession(200),
          dark: false,
          width: 1280,
          height: 800,
          scale: 1,
        },
        {
          name: "long-dark",
          transcript: longSession(200),
          dark: true,
          width: 1280,
          height: 800,
          scale: 1,
        },
      ];
      const backgrounds: Record<string, string> = {};
      for (const shot of shots) {
        const file = writePage(`${shot.name}.html`, renderHtml(shot.transcript));
        const { page, errors } = await open(file, shot);
        const image = path.join(outputDir, `${shot.name}.png`);
        await page.screenshot({ path: image as `${string}.png`, type: "png" });
        backgrounds[shot.name] = await page.evaluate(
          () => getComputedStyle(document.body).backgroundColor,
        );
        const png = readPng(readFileSync(image));
        expect(png.width).toBe(shot.width * shot.scale);
        expect(png.height).toBe(shot.height * shot.scale);
        // Not a blank page: text, borders and colours give many distinct byte values.
        expect(png.distinctBytes).toBeGreaterThan(40);
        expect(errors).toEqual([]);
        await page.close();
      }
      expect(backgrounds["small-light"]).toBe("rgb(255, 255, 255)");
      expect(backgrounds["small-dark"]).toBe("rgb(13, 17, 23)");
      expect(readFileSync(path.join(outputDir, "small-light.png"))).not.toEqual(
        readFileSync(path.join(outputDir, "small-dark.png")),
      );

      // The README's picture: regenerated here, copied into docs/ only on purpose.
      const file = writePage("readme.html", renderHtml(smallSession(), { harness: "claude_code" }));
      const { page } = await open(file, { width: 960, height: 1400 });
      await page.$eval(
        "details.result",
        (details) => ((details as HTMLDetailsElement).open = true),
      );
      const image = path.join(outputDir, "session-page.png");
      await page.screenshot({ path: image as `${string}.png`, type: "png" });
      await page.close();
      expect(readPng(readFileSync(image))).toMatchObject({ width: 960, height: 1400 });
      if (process.env.TXCRIPT_UPDATE_SCREENSHOTS === "1") copyFileSync(image, docsImage);
    });
  },
);
