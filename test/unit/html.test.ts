import { describe, expect, it } from 'vitest';
import { ProcessorError } from '../../src/processors/errors.js';
import { htmlProcessor } from '../../src/processors/html/index.js';
import type { ProcessorInput } from '../../src/types.js';
import { backendName, analysisOf } from '../support/backend.js';
import { charEstimator, runProcessor } from '../support/processor-run.js';
import { describeNeverLarger } from '../support/never-larger.js';

const estimator = charEstimator;
const run = (text: string, level: ProcessorInput['level'], budget = 4000, preserve: string[] = []) =>
  runProcessor(htmlProcessor, text, { level, budget, preserve });

const paragraphs = Array.from(
  { length: 40 },
  (_, i) =>
    `<p>Paragraph ${i} of the story explains step ${i} in plain words &amp; detail, with a <a href="/ref/${i % 5}">reference</a>.</p>`,
).join('\n');

const page = `<!DOCTYPE html>
<html><head><title>Tom &amp; Jerry: a history</title>
<meta property="og:title" content="The history of Tom and Jerry">
<link rel="canonical" href="https://news.example.com/history">
<style>body { color: red }</style><script>window.track = "script text";</script></head>
<body>
<header class="site-header"><a href="/">Home</a> <a href="/world">World</a></header>
<nav><ul><li><a href="/a">Menu A</a></li><li><a href="/b">Menu B</a></li></ul></nav>
<div id="cookie-consent">We use cookies to improve your experience.</div>
<!-- a comment that must go -->
<main>
<article>
<h1>Tom &amp; Jerry</h1>
<p>The cat and the mouse first met in 1940, in a short called &ldquo;Puss Gets the Boot&rdquo;.</p>
<h2>Episodes</h2>
<ul><li>Puss Gets the Boot</li><li>The Midnight Snack</li></ul>
<table><tr><th>Year</th><th>Title</th></tr><tr><td>1940</td><td>Puss Gets the Boot</td></tr></table>
<pre><code>const chase = () =&gt; mouse.run();</code></pre>
<p>Read <a href="https://news.example.com/archive/1940">the archive</a> or <a href="https://other.example.org/x">elsewhere</a>.</p>
<svg><text>svg text</text></svg><noscript>enable javascript</noscript>
${paragraphs}
</article>
<aside class="related-stories"><a href="/r1">Related story one</a></aside>
</main>
<footer>Copyright footer text</footer>
</body></html>`;

describe(`html processor (${backendName})`, () => {
  it('extracts title, headings, paragraphs, lists, tables, code and links as markdown-ish text', () => {
    const out = run(page, 'lossless');
    const text = out.text;
    expect(text.startsWith('# Tom & Jerry: a history\n# The history of Tom and Jerry')).toBe(true);
    expect(text).toContain('# Tom & Jerry\n');
    expect(text).toContain('The cat and the mouse first met in 1940, in a short called “Puss Gets the Boot”.');
    expect(text).toContain('## Episodes');
    expect(text).toContain('- Puss Gets the Boot\n- The Midnight Snack');
    expect(text).toContain('| Year | Title |\n| --- | --- |\n| 1940 | Puss Gets the Boot |');
    expect(text).toContain('```\nconst chase = () => mouse.run();\n```');
    expect(text).toContain('- the archive: /archive/1940');
    expect(text).toContain('- elsewhere: https://other.example.org/x');
    expect(text.match(/: \/ref\/0$/gm)).toHaveLength(1);
  });

  it('drops scripts, styles, svg, noscript, comments and boilerplate', () => {
    const text = run(page, 'lossless').text;
    for (const gone of [
      'color: red',
      'script text',
      'svg text',
      'enable javascript',
      'a comment',
      'Menu A',
      'We use cookies',
      'Related story',
      'Copyright footer',
      'World',
    ]) {
      expect(text).not.toContain(gone);
    }
  });

  it('light fits the budget by dropping whole paragraphs with exact markers; aggressive keeps less', () => {
    const full = run(page, 'lossless');
    const light = run(page, 'light', 400);
    const aggressive = run(page, 'aggressive', 400);
    expect(estimator.estimate(light.text)).toBeLessThanOrEqual(400);
    expect(estimator.estimate(aggressive.text)).toBeLessThan(estimator.estimate(light.text));
    const paragraphsIn = (t: string) => (t.match(/^Paragraph \d+ of the story/gm) ?? []).length;
    // Each gap is named by the heading it sits under: `[… 3 blocks under "Episodes" omitted: 3 paragraphs …]`.
    const marked = [
      ...light.text.matchAll(/\[… ([\d,]+) blocks?(?: under "[^"]*")? omitted: ([\d,]+) paragraphs? …\]/g),
    ].reduce((a, m) => a + Number(m[2]), 0);
    expect(light.text).toMatch(/\[… [\d,]+ blocks? under "Episodes" omitted/);
    expect(marked).toBe(light.omitted.paragraphs);
    expect(paragraphsIn(light.text) + marked).toBeGreaterThanOrEqual(paragraphsIn(full.text));
    expect(light.text).toContain('## Episodes');
    expect(full.text.length).toBeLessThan(page.length);
  });

  it('keeps preserved strings verbatim even when the markup splits them', () => {
    const out = run(page, 'aggressive', 200, ['Paragraph 39 of the story']);
    expect(out.text).toContain('Paragraph 39 of the story');
  });

  it('survives malformed, empty and binary-ish input', () => {
    const malformed = '<html><body><div><p>Unclosed <b>bold <i>text</p></div><table><tr><td>cell</body>';
    expect(run(malformed, 'light').text).toContain('Unclosed bold text');
    expect(() => run('', 'light')).toThrow(ProcessorError);
    expect(() => run('<html><script>only()</script></html>', 'light')).toThrow(ProcessorError);
    const binary = '\u0000\u0001<\u0002>\ufffd<p>x'.repeat(100);
    let outcome: string;
    try {
      outcome = run(binary, 'light').text.length <= binary.length ? 'smaller' : 'larger';
    } catch (error) {
      outcome = error instanceof ProcessorError ? 'refused' : 'crashed';
    }
    expect(['smaller', 'refused']).toContain(outcome);
  });

  it('falls back to all visible text when the main region is not substantial', () => {
    const sparse = `<html><body><article><p>tiny</p></article><div>${'Plenty of visible text outside the article. '.repeat(40)}</div></body></html>`;
    expect(run(sparse, 'lossless').text).toContain('Plenty of visible text outside the article.');
  });

  it('sniffs HTML', () => {
    expect(htmlProcessor.sniff(analysisOf(page))).toBe(1);
    expect(
      htmlProcessor.sniff(analysisOf('<div><p>a</p><p>b</p><span>c</span><a href=x>d</a><b>e</b></div>')),
    ).toBeGreaterThan(0);
    expect(htmlProcessor.sniff(analysisOf('plain text, no tags'))).toBe(0);
  });
});

describe(`html output size (${backendName})`, () => {
  it('gives a tiny fragment back unchanged rather than a larger rendering', () => {
    const fragment = '<a href=/x>link text</a>';
    expect(run(fragment, 'lossless').text).toBe(fragment);
  });
});

describe(`html inline chrome (${backendName})`, () => {
  it('drops inline chrome (edit links, share buttons) without cutting the line around it', () => {
    const body = '<p>Body text of the section that is long enough to count as content here.</p>'.repeat(5);
    const page = `<html><body><article><h2><span>History</span><span class="mw-editsection">[edit]</span></h2>${body}<p>Read more <a class="share-link" href="/s">Share</a> below.</p></article></body></html>`;
    const text = run(page, 'lossless').text;
    expect(text.startsWith('## History\n')).toBe(true);
    expect(text).toContain('Read more below.');
    expect(text).not.toContain('[edit]');
  });
});

describeNeverLarger(htmlProcessor, estimator);
