import { describe, expect, it } from 'vitest';
import { JsonInputError } from '../../src/processors/errors.js';
import { jsonProcessor } from '../../src/processors/json/index.js';
import type { ProcessorInput } from '../../src/types.js';
import { backendName, analysisOf } from '../support/backend.js';
import { charEstimator, runProcessor } from '../support/processor-run.js';
import { describeNeverLarger } from '../support/never-larger.js';

const estimator = charEstimator;
const run = (text: string, level: ProcessorInput['level'], budget = 4000, preserve: string[] = []) =>
  runProcessor(jsonProcessor, text, { level, budget, preserve });

// An npm-audit-like report: many low advisories, two high ones in the middle.
const advisories = Array.from({ length: 500 }, (_, i) => ({
  id: 1000 + i,
  module_name: `pkg-${i}`,
  severity: i === 240 || i === 377 ? 'high' : 'low',
  title: i === 240 ? 'Prototype Pollution in pkg-240' : `Minor issue ${i}`,
  url: `https://github.com/advisories/GHSA-${i}`,
}));
const report = JSON.stringify({ auditReportVersion: 2, advisories, metadata: { total: 500 } }, null, 2);

describe(`json processor (${backendName})`, () => {
  it('lossless output is the compact rendering, never larger than minified JSON', () => {
    const out = run(report, 'lossless');
    expect(out.omitted).toEqual({});
    expect(out.text.length).toBeLessThanOrEqual(JSON.stringify(JSON.parse(report)).length);
    expect(out.text).toContain('advisories[500]{id,module_name,severity,title,url}:');
    for (const a of advisories) expect(out.text).toContain(`${a.id},${a.module_name},${a.severity}`);
  });

  it('light fits the budget, keeps high severities whole and counts every omitted item exactly', () => {
    const out = run(report, 'light', 1000);
    expect(estimator.estimate(out.text)).toBeLessThanOrEqual(1000);
    expect(out.text).toContain('Prototype Pollution in pkg-240');
    expect(out.text).toContain('pkg-377');
    // Each marker names the JSON path and the index range it stands for: `[… $.advisories[3–40] (38 items): …]`.
    const markers = [...out.text.matchAll(/\[… \$\.advisories\[(\d+)(?:–(\d+))?\] \(([\d,]+) items?\)/g)].map((m) => {
      expect(Number(m[2] ?? m[1]) - Number(m[1]) + 1).toBe(Number(m[3]!.replace(/,/g, '')));
      return Number(m[3]!.replace(/,/g, ''));
    });
    const kept = (out.text.match(/^ *1\d{3},pkg-/gm) ?? []).length;
    expect(markers.reduce((a, b) => a + b, 0) + kept).toBe(500);
    expect(out.omitted['array items']).toBe(500 - kept);
    expect(out.text.startsWith('[json {auditReportVersion,advisories[500]')).toBe(true);
  });

  it('aggressive keeps fewer samples than light', () => {
    const light = run(report, 'light', 2000);
    const aggressive = run(report, 'aggressive', 2000);
    expect(estimator.estimate(aggressive.text)).toBeLessThan(estimator.estimate(light.text));
    expect(aggressive.omitted['array items']).toBeGreaterThan(light.omitted['array items']!);
    expect(aggressive.text).toContain('Prototype Pollution in pkg-240');
  });

  it('keeps error records (message with a non-2xx status) and cuts long strings with exact counts', () => {
    const exchanges = Array.from({ length: 30 }, (_, i) => ({
      path: `/repos/o/r/items/${i}`,
      status: i === 17 ? 404 : 200,
      response:
        i === 17
          ? { message: 'Not Found', documentation_url: 'https://docs.example.com/rest' }
          : { body: 'x'.repeat(900) },
    }));
    const out = run(JSON.stringify(exchanges), 'light', 800);
    expect(out.text).toContain('Not Found');
    expect(out.text).toContain('/repos/o/r/items/17');
    for (const m of out.text.matchAll(/(x+)\[… ([\d,]+) characters omitted …\]/g)) {
      expect(m[1]!.length + Number(m[2]!.replace(/,/g, ''))).toBe(900);
    }
  });

  it('keeps preserved strings verbatim', () => {
    const out = run(report, 'aggressive', 300, ['Minor issue 123']);
    expect(out.text).toContain('Minor issue 123');
  });

  it('appends a preserved string that spans JSON syntax verbatim when the rendering cannot hold it', () => {
    const out = run(report, 'light', 1000, ['"severity": "high"']);
    expect(out.text).toContain('\n[… preserved: "severity": "high" …]');
  });

  it('shows a nested record that stands out as its original lines at light, and only where it has lines of its own', () => {
    const pods = Array.from({ length: 30 }, (_, i) => ({
      name: `pod-${i}`,
      labels: { app: `service-${i % 4}`, team: 'payments', release: `2026.12.${i % 9}`, tier: 'backend' },
      spec: { node: `worker-${i % 3}`, containers: [{ name: 'app', image: 'app:1.0', ports: [{ port: 8080 }] }] },
      status: { phase: i === 17 ? 'Pending' : 'Running', conditions: [{ type: 'Ready', status: String(i !== 17) }] },
    }));
    const pretty = JSON.stringify({ items: pods }, null, 2);
    const record = JSON.stringify(pods[17], null, 2)
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n');
    expect(pretty).toContain(record);
    const light = run(pretty, 'light', 400).text;
    expect(light).toContain(record);
    expect(run(pretty, 'aggressive', 400).text).not.toContain(record);
    // One line holds the whole document: the record has no lines to show, it is rendered compact.
    const minified = run(JSON.stringify({ items: pods }), 'light', 400).text;
    expect(minified).toContain('phase:Pending');
    expect(minified).not.toContain('"phase": "Pending"');
  });

  it('reads JSON lines (cargo --message-format=json)', () => {
    const lines = [
      '{"reason":"compiler-artifact","package_id":"a 0.1.0","fresh":true}',
      '{"reason":"compiler-message","message":{"level":"warning","message":"unused import: `x`"}}',
      '{"reason":"build-finished","success":true}',
    ].join('\n');
    const out = run(lines, 'lossless');
    expect(out.text).toContain('unused import: `x`');
    expect(out.text.split('\n')).toHaveLength(3);
  });

  it('rejects invalid, empty and 100,000-deep JSON with a typed error, without crashing', () => {
    expect(() => run('{"a": [1, 2', 'light')).toThrow(JsonInputError);
    expect(() => run('', 'light')).toThrow(JsonInputError);
    expect(() => run('\u0000\u0001\ufffdbinary', 'light')).toThrow(JsonInputError);
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(() => run(deep, 'light')).toThrow(/nesting depth 100000/);
    try {
      run('{bad}', 'light');
    } catch (error) {
      expect((error as Error).cause).toBeInstanceOf(SyntaxError);
    }
  });

  it('quotes strings that would read as another type or as syntax', () => {
    const out = run(
      JSON.stringify({
        a: '42',
        b: 'true',
        c: 'x,y',
        d: '',
        e: 'plain text',
        f: 42,
        g: '(same as a)',
        pad: 'x'.repeat(40),
      }),
      'lossless',
    );
    expect(out.text).toContain('g:"(same as a)"');
    expect(out.text).toContain('a:"42"');
    expect(out.text).toContain('b:"true"');
    expect(out.text).toContain('c:"x,y"');
    expect(out.text).toContain('d:""');
    expect(out.text).toContain('e:plain text');
    expect(out.text).toContain('f:42');
  });

  it('sniffs JSON', () => {
    expect(jsonProcessor.sniff(analysisOf('{"a":1}'))).toBe(1);
    expect(jsonProcessor.sniff(analysisOf('[1,2'))).toBeGreaterThan(0.5);
    expect(jsonProcessor.sniff(analysisOf('hello'))).toBe(0);
    expect(jsonProcessor.sniff(analysisOf('{"a":1}\n{"a":2}\n{"a":3'))).toBe(0.9);
    expect(
      jsonProcessor.sniff(analysisOf('[    0.000000] Linux version 5.4.0 (gcc 9)\n[    0.000001] Command line: ro')),
    ).toBeLessThan(0.3);
    expect(jsonProcessor.sniff(analysisOf('[INFO] Scanning for projects...\n[INFO] BUILD SUCCESS'))).toBeLessThan(0.3);
  });
});

describe(`json repeated subtrees (${backendName})`, () => {
  it('renders later copies of a large subtree as a reference to the first (lossless)', () => {
    const user = {
      login: 'octocat',
      id: 1,
      url: 'https://api.example.com/users/octocat',
      html_url: 'https://example.com/octocat',
    };
    const issues = [1, 2, 3].map((n) => ({ number: n, title: `Issue ${n} title`, user: { ...user } }));
    const out = run(JSON.stringify({ issues }), 'lossless');
    expect(out.text.match(/login:octocat/g)).toHaveLength(1);
    expect(out.text.match(/\(same as issues\[0\]\.user\)/g)).toHaveLength(2);
    expect(out.omitted).toEqual({});
  });
});

describe(`json numbers beyond double precision (${backendName})`, () => {
  it('renders long ids and decimals exactly as written', () => {
    const text =
      '{"id":12345678901234567890,"ratio":0.12345678901234567,"small":42,"list":[-98765432109876543210,1.5e300],"s":"12345678901234567890"}';
    const out = run(text, 'lossless');
    expect(out.text).toContain('id:12345678901234567890');
    expect(out.text).toContain('ratio:0.12345678901234567');
    expect(out.text).toContain('small:42');
    expect(out.text).toContain('[-98765432109876543210,1.5e+300]');
    expect(out.text).toContain('s:"12345678901234567890"');
  });
});

describe(`json output size (${backendName})`, () => {
  it('gives already minimal JSON back unchanged', () => {
    expect(run('[1,2,3]', 'lossless').text).toBe('[1,2,3]');
  });
});

describeNeverLarger(jsonProcessor, estimator);
