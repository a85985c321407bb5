// The playground page from the built files alone (dist/playground/index.html
// over file://, no server, no network) in real Chromium driven by playwright-core:
// a pasted service log shows its error lines, positioned omission markers and
// the token counts; a marker click scrolls the original to its lines; no page
// error. A screenshot goes to a temp folder, and the time to the first output
// for a 1 MB paste is printed (measured in the page, not asserted).
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasProgram, programPath } from '../support/system-program.js';

const PAGE = resolve(import.meta.dirname, '../../dist/playground/index.html');
const run = hasProgram('chromium', 'the playground page in a real browser');

/** A service log of `lines` INFO lines (varied numbers, as a real one has), with ERROR lines at the 1-based `errors`. */
function serviceLog(lines: number, errors: readonly number[]): { text: string; errorLines: string[] } {
  const out: string[] = [];
  const errorLines: string[] = [];
  for (let i = 1; i <= lines; i++) {
    const at = `2026-12-02T10:${String(Math.floor(i / 600) % 60).padStart(2, '0')}:${String(Math.floor(i / 10) % 60).padStart(2, '0')}.${String((i * 7) % 1000).padStart(3, '0')}Z`;
    if (errors.includes(i)) {
      const line = `${at} ERROR [db] query ${i} failed: connection to 10.0.${i % 7}.12:5432 refused (attempt 3 of 3)`;
      errorLines.push(line);
      out.push(line);
    } else out.push(`${at} INFO  [worker-${i % 4}] processed job ${10_000 + i} in ${(i * 37) % 200}ms`);
  }
  return { text: `${out.join('\n')}\n`, errorLines };
}

const byTestId = (id: string) => `[data-testid="${id}"]`;

/**
 * Pastes `text` into the page's input and waits for the counts to change: the
 * value a paste leaves and the input event it fires (typing it through the
 * keyboard protocol takes seconds per thousand lines, for the browser's test
 * input, not the page).
 */
async function paste(page: Page, text: string): Promise<void> {
  const before = await page.textContent(byTestId('tokens'));
  await page.$eval(
    byTestId('input'),
    (input, pasted) => {
      (input as HTMLTextAreaElement).value = pasted;
      input.dispatchEvent(new InputEvent('input', { inputType: 'insertFromPaste', bubbles: true }));
    },
    text,
  );
  await page.waitForFunction(([selector, previous]) => document.querySelector(selector!)?.textContent !== previous, [
    byTestId('tokens'),
    before,
  ] as const);
}

describe.skipIf(!run)('the playground page in Chromium (file://)', () => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(PAGE)) throw new Error(`${PAGE} is missing: run npm run build first`);
    browser = await chromium.launch({
      executablePath: programPath('chromium')!,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
    page.on('pageerror', (error) => errors.push(String(error)));
    // The page must need nothing but itself: any request past the file fails the test.
    page.on('request', (request) => {
      if (request.url() !== pathToFileURL(PAGE).href) errors.push(`request for ${request.url()}`);
    });
    await page.goto(pathToFileURL(PAGE).href);
    // The first sample (the demo CI run) compresses on load.
    await page.waitForFunction(
      (selector) => document.querySelector(selector)?.textContent?.startsWith('tokens in'),
      byTestId('tokens'),
    );
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows a pasted 3,000-line log with both error lines, positioned markers and the token counts', async () => {
    const { text, errorLines } = serviceLog(3000, [1234, 2718]);
    await paste(page, text);
    const output = (await page.textContent(byTestId('output'))) ?? '';
    for (const line of errorLines) expect(output).toContain(line);
    const counts = /^tokens in ([\d,]+) · out ([\d,]+) · saved ([\d,]+) .*compressed.*wasm backend/.exec(
      (await page.textContent(byTestId('tokens'))) ?? '',
    );
    expect(counts).not.toBeNull();
    const [tokensIn, tokensOut, saved] = counts!.slice(1).map((n) => Number(n.replaceAll(',', '')));
    expect(tokensOut).toBeLessThan(tokensIn!);
    expect(saved).toBe(tokensIn! - tokensOut!);
    // Each marker sits where its lines were: the view line before it is the original line before its span,
    // and the original shades the same span under a label naming the same lines.
    const original = text.split('\n');
    const markers = await page.$$eval(`${byTestId('output')} button.marker[data-start]`, (nodes) =>
      nodes.map((node) => ({
        start: Number((node as HTMLElement).dataset.start),
        text: node.textContent ?? '',
        before: (node.previousSibling?.textContent ?? '').replace(/\n$/, '').split('\n').pop() ?? '',
        label: document.getElementById(`original-${(node as HTMLElement).dataset.start}`)?.querySelector('.label')
          ?.textContent,
      })),
    );
    expect(markers.length).toBeGreaterThan(0);
    for (const marker of markers) {
      const range = /lines? ([\d,–]+(?: \([\d,]+\))?)/.exec(marker.text)?.[1];
      expect(range && marker.label?.startsWith(`line${marker.text.includes('[… lines') ? 's' : ''} ${range}`)).toBe(
        true,
      );
      if (marker.start > 1 && marker.before !== '') expect(marker.before).toBe(original[marker.start - 2]);
    }
    expect(errors).toEqual([]);
  });

  it('scrolls the original to the lines of a clicked marker', async () => {
    const last = page.locator(`${byTestId('output')} button.marker[data-start]`).last();
    const start = await last.getAttribute('data-start');
    await page.$eval('#original', (pane) => {
      pane.scrollTop = 0;
    });
    await last.click();
    const view = await page.$eval(
      '#original',
      (pane, id) => {
        const target = document.getElementById(id)!.getBoundingClientRect();
        const box = pane.getBoundingClientRect();
        return { scrollTop: pane.scrollTop, inView: target.top >= box.top - 1 && target.top < box.bottom };
      },
      `original-${start}`,
    );
    expect(view.scrollTop).toBeGreaterThan(0);
    expect(view.inView).toBe(true);
    const folder = mkdtempSync(join(tmpdir(), 'squeeze-playground-'));
    const shot = join(folder, 'playground.png');
    await page.screenshot({ path: shot });
    expect(statSync(shot).size).toBeGreaterThan(0);
    console.info(`playground screenshot: ${shot}`);
    expect(errors).toEqual([]);
  });

  it('compresses again when a setting changes, a sample is picked or a file is dropped', async () => {
    const counts = async () => (await page.textContent(byTestId('tokens'))) ?? '';
    const changed = (before: string) =>
      page.waitForFunction(([selector, previous]) => document.querySelector(selector!)?.textContent !== previous, [
        byTestId('tokens'),
        before,
      ] as const);
    let before = await counts();
    await page.fill('#max-tokens', '800');
    await changed(before);
    const out = Number(/ out ([\d,]+)/.exec(await counts())?.[1]?.replaceAll(',', ''));
    expect(out).toBeLessThanOrEqual(800);

    before = await counts();
    const picked = await page.$eval('#sample', (select) => {
      const s = select as HTMLSelectElement;
      return s.options[s.options.length - 1]!.value;
    });
    await page.selectOption('#sample', picked);
    await changed(before);
    expect(await page.inputValue('#command')).not.toBe('');
    expect((await page.inputValue(byTestId('input'))).length).toBeGreaterThan(0);

    before = await counts();
    const { text, errorLines } = serviceLog(500, [250]);
    const files = await page.evaluateHandle((dropped) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([dropped], 'service.log', { type: 'text/plain' }));
      return transfer;
    }, text);
    await page.dispatchEvent(byTestId('input'), 'drop', { dataTransfer: files });
    await changed(before);
    expect(await page.inputValue(byTestId('input'))).toBe(text);
    expect(await page.textContent(byTestId('output'))).toContain(errorLines[0]);
    expect(await page.inputValue('#sample')).toBe('');
    await page.fill('#max-tokens', '12000');
    expect(errors).toEqual([]);
  });

  it('answers a 1 MB paste (time to the first output printed, not asserted)', async () => {
    const { text, errorLines } = serviceLog(14_500, [3000, 9000, 14_000]);
    expect(text.length).toBeGreaterThan(1_000_000);
    const elapsed = await page.evaluate(async (pasted) => {
      const input = document.querySelector<HTMLTextAreaElement>('[data-testid="input"]')!;
      const tokens = document.querySelector('[data-testid="tokens"]')!;
      const before = tokens.textContent;
      const started = performance.now();
      input.value = pasted;
      input.dispatchEvent(new InputEvent('input', { inputType: 'insertFromPaste', bubbles: true }));
      await new Promise<void>((done) => {
        const watch = new MutationObserver(() => {
          if (tokens.textContent === before) return;
          watch.disconnect();
          done();
        });
        watch.observe(tokens, { childList: true, characterData: true, subtree: true });
      });
      // Until the next frame is painted.
      await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
      return performance.now() - started;
    }, text);
    const counts = (await page.textContent(byTestId('tokens'))) ?? '';
    const output = (await page.textContent(byTestId('output'))) ?? '';
    for (const line of errorLines) expect(output).toContain(line);
    console.info(
      `playground: ${text.length.toLocaleString('en-US')}-character paste, first output painted ${elapsed.toFixed(0)} ms ` +
        `after the input event (250 ms of it the debounce); the pipeline: ${/(\d+) ms$/.exec(counts)?.[1]} ms`,
    );
    expect(errors).toEqual([]);
  });
});
