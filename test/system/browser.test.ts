// Embedding proof: the shipped build/squeeze.wasm in headless Chromium, driven
// by a hand-written host that follows docs/ABI.md (test/system/browser/host.js,
// no engine code), served from a loopback server this test starts. Its results
// must equal the Node engine's on both backends.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBackend,
  EVIDENCE_FLAGS,
  severityOf,
  TextAnalysis,
  tokenProfile,
  type Backend,
  type BlockSpans,
} from '../../src/engine/index.js';
import { corpusFiles, skipWithoutSharedCorpus } from '../support/corpus.js';
import { programPath } from '../support/system-program.js';

const CHROMIUM = programPath('chromium');
const WASM = resolve(import.meta.dirname, '../../build/squeeze.wasm');
const HOST = resolve(import.meta.dirname, 'browser/host.js');
const PAGE =
  '<!doctype html><meta charset="utf-8"><title>squeeze.wasm</title><script type="module" src="/host.js"></script>';

const missing = CHROMIUM === undefined;
const skip = missing && !process.env.CI;
if (skip) console.warn('browser test skipped: chromium is not on the PATH and CI is unset (in CI it must run)');

/** The texts both sides analyse: line-ending, surrogate, CJK and repetition edge cases, plus real corpus samples. */
function texts(): [string, string][] {
  const samples: [string, string][] = [
    ['empty', ''],
    ['LF', 'alpha\nbeta\nalpha\n'],
    ['CRLF', 'one\r\ntwo\r\none\r\n\r\nlast'],
    ['lone CR and CR at end', 'a\rb\nc\r'],
    ['surrogate pairs', '😀 ok\n😀 ok\n𝔘𝔫𝔦\n'],
    ['lone surrogates', '\ud800x\n\udfff\n\ud800x\nz\ud83d'],
    ['CJK', '错误: 文件未找到\n警告: 已弃用\n错误: 文件未找到\n日本語のログ\n'],
    ['NUL and ANSI', '\u0000\n\u001b[31mERROR\u001b[0m\n\u001b[31mERROR\u001b[0m'],
    [
      'repeated blocks and templates',
      `start\n${'GET /a/1 200 12ms\nGET /b/2 404 3ms\nretry 3\n'.repeat(5)}done 2024-01-02T03:04:05Z\n`,
    ],
    [
      'errors, a stack trace and a summary',
      'INFO start\nERROR db.c:12: connection refused\nTraceback (most recent call last):\n  File "x.py", line 3, in <module>\nValueError: bad\n' +
        'DEBUG tick\n'.repeat(60) +
        'Tests: 2 failed, 5 passed\n',
    ],
    ['40K units (memory grows past its first page)', 'x\r\ny\n'.repeat(10_000)],
  ];
  const seen = new Set<string>();
  if (skip || skipWithoutSharedCorpus("the browser test's real corpus samples (the edge cases still run)"))
    return samples;
  for (const file of corpusFiles()) {
    if (seen.has(file.folder)) continue;
    seen.add(file.folder);
    samples.push([`corpus ${file.folder}/${file.name} (first 20K units)`, file.text.slice(0, 20_000)]);
  }
  return samples;
}

const COSTS = tokenProfile().costs;
const WINDOW_LINES = 4;
const BLOCK_LINES = 3;

const spans = (b: BlockSpans) => ({
  count: b.count,
  start: Array.from(b.start),
  lines: Array.from(b.lines),
  source: Array.from(b.source),
});

/** The same kernels through the Node engine (TextAnalysis and the Backend). */
function nodeResult(text: string, backend: Backend) {
  const a = new TextAnalysis(text, backend);
  const { count, start, end, hashA, hashB } = a.lines;
  const windows = a.windows(WINDOW_LINES);
  const seen = a.seenBlocks({ ...windows, owner: new Int32Array(windows.hashA.length) }, WINDOW_LINES);
  const lineTokens = a.lineTokensFor(tokenProfile());
  const classes = a.classes;
  const cost = Int32Array.from(lineTokens.milli, (m) => Math.ceil(m / 1000));
  if (backend.text !== text) backend.begin(text);
  const plan = backend.planWindows({
    count,
    cost,
    levels: classes.flags,
    priority: Int32Array.from(classes.flags, (f) => (severityOf(f) >= 5 ? 2 : f & EVIDENCE_FLAGS ? 1 : 0)),
    budget: Math.ceil(cost.reduce((sum, c) => sum + c, 0) / 4),
    head: 20,
    tail: 20,
    before: 3,
    after: 3,
  });
  return {
    count,
    written: count,
    start: Array.from(start),
    end: Array.from(end),
    hashA: Array.from(hashA),
    hashB: Array.from(hashB),
    group: Array.from(a.exact.group),
    size: Array.from(a.exact.size),
    distinct: a.exact.distinct,
    templateA: Array.from(a.templateHashes.hashA),
    templateB: Array.from(a.templateHashes.hashB),
    templateGroup: Array.from(a.templates.group),
    templateSize: Array.from(a.templates.size),
    templateDistinct: a.templates.distinct,
    repeated: spans(a.repeatedBlocks(BLOCK_LINES, 'exact')),
    windowCount: windows.hashA.length,
    windowA: Array.from(windows.hashA),
    windowB: Array.from(windows.hashB),
    seen: spans(seen),
    tokens: backend.estimateTokens(COSTS),
    lineTokenTotal: lineTokens.tokens,
    milli: Array.from(lineTokens.milli),
    flags: Array.from(classes.flags),
    summary: classes.summary,
    plan: {
      spans: Array.from(plan.spans),
      omitted: Array.from(plan.omittedBySeverity),
      keptTokens: plan.keptTokens,
      keptLines: plan.keptLines,
    },
  };
}

describe.skipIf(skip)('squeeze.wasm in headless Chromium via docs/ABI.md', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (missing) throw new Error('CI is set but chromium is not on the PATH: install it (see .ci/run)');
    if (!existsSync(WASM)) throw new Error(`${WASM} is missing: run node scripts/build-wasm.mjs first`);
    const wasm = readFileSync(WASM);
    const host = readFileSync(HOST);
    server = createServer((req, res) => {
      const [type, body] =
        req.url === '/squeeze.wasm'
          ? ['application/wasm', wasm]
          : req.url === '/host.js'
            ? ['text/javascript', host]
            : req.url === '/'
              ? ['text/html; charset=utf-8', PAGE]
              : [null, null];
      if (!type) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': type }).end(body);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    // launch() gives the browser a fresh temporary profile (user-data-dir) and deletes it on close.
    browser = await chromium.launch({
      executablePath: CHROMIUM!,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${port}/`);
    await page
      .waitForFunction(() => (window as unknown as { squeezeReady?: boolean }).squeezeReady === true, null, {
        timeout: 20_000,
      })
      .catch((cause) => {
        throw new Error(`the page host did not start: ${errors.join('; ') || String(cause)}`, { cause });
      });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => (server ? server.close(done) : done(undefined)));
  });

  it('instantiates with no imports and exports exactly the documented ABI', async () => {
    const info = await page.evaluate(() => {
      const host = (window as unknown as { squeezeHost: { imports: number; exports: string[] } }).squeezeHost;
      return { imports: host.imports, exports: host.exports };
    });
    expect(info.imports).toBe(0);
    expect(info.exports).toEqual([
      'function:classify_lines',
      'function:count_lines',
      'function:estimate_tokens',
      'function:field_spans',
      'function:group_lines',
      'function:heap_base',
      'function:id_masked_hashes',
      'function:line_tokens',
      'function:lines',
      'function:plan_windows',
      'function:repeated_blocks',
      'function:seen_blocks',
      'function:template_hashes',
      'function:text_features',
      'function:volatile_fields',
      'function:window_hashes',
      'memory:memory',
    ]);
  });

  const wasm = createBackend('wasm');
  const js = createBackend('js');
  it.each(texts())('agrees with both Node backends on %s', async (_, text) => {
    // UTF-16LE bytes as base64, not the string: the wire to the page must not repair lone
    // surrogates. The answer comes back as one JSON string (fast to move through the protocol).
    const utf16 = Buffer.from(text, 'utf16le').toString('base64');
    const browserResult = JSON.parse(
      await page.evaluate(
        ([b64, costs]) => {
          const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
          const host = (window as unknown as { squeezeHost: { analyse(u: Uint16Array, c: number[]): unknown } })
            .squeezeHost;
          return JSON.stringify(host.analyse(new Uint16Array(bytes.buffer), costs));
        },
        [utf16, Array.from(COSTS)] as const,
      ),
    );
    expect(browserResult).toEqual(nodeResult(text, wasm));
    expect(browserResult).toEqual(nodeResult(text, js));
  });

  it('grew its memory for the large text, as the host must', async () => {
    const pages = await page.evaluate(() =>
      (window as unknown as { squeezeHost: { pages(): number } }).squeezeHost.pages(),
    );
    expect(pages).toBeGreaterThan(1);
  });
});
