import { describe, expect, it } from 'vitest';
import { TextAnalysis, templateText, volatileFields } from '../../src/engine/index.js';
import { backendName, testBackend } from '../support/backend.js';
import { corpusFiles, skipWithoutSharedCorpus } from '../support/corpus.js';
import { fixtures } from '../support/fixtures.js';

function analyse(text: string): TextAnalysis {
  return new TextAnalysis(text, testBackend());
}

/** Line indices grouped by template, as arrays of line texts. */
function templateGroups(text: string): string[][] {
  const a = analyse(text);
  const groups = new Map<number, string[]>();
  for (let i = 0; i < a.lines.count; i++) {
    const first = a.templates.group[i]!;
    groups.set(first, [...(groups.get(first) ?? []), a.line(i)]);
  }
  return [...groups.values()];
}

describe('volatile fields (host helper, the masking rule)', () => {
  it.each([
    ['took 5ms', ['5']],
    ['took 12345ms', ['12345']],
    [
      'at 0x1f3a and 9f4ef63, commit 3b04890c1d2e7f5a6b8c9d0e1f2a3b4c5d6e7f80',
      ['0x1f3a', '9f4ef63', '3b04890c1d2e7f5a6b8c9d0e1f2a3b4c5d6e7f80'],
    ],
    [
      '[req-38101a0b-2096-447d-96ea-a692162415ae 113d3a99c3da401fbd62cc2caa5b96d2]',
      ['38101a0b-2096-447d-96ea-a692162415ae', '113d3a99c3da401fbd62cc2caa5b96d2'],
    ],
    ['uuid abcdefab-cdef-abcd-efab-cdefabcdef12 ok', ['abcdefab-cdef-abcd-efab-cdefabcdef12']],
    ['2005-06-03-15.42.50.675872 R02-M1-N0-C:J12-U11 RAS', ['2005-06-03-15.42.50.675872', '02-M1-N0-C:J12-U11']],
    ['081109 214043 148 INFO dfs.DataNode', ['081109', '214043', '148']],
    ['2015-10-18 18:01:47,978 INFO [main]', ['2015-10-18', '18:01:47,978']],
    ['at 2017-05-16T00:00:00.008Z done', ['2017-05-16T00:00:00.008']],
    [
      'from /10.251.73.220:50010 to [fe80::1ff:fe23:4567:890a]:8080',
      ['10.251.73.220:50010', 'fe80::1ff:fe23:4567:890a', '8080'],
    ],
    ['Zookeeper 0:0:0:0:0:0:0:0:2181 up', ['0:0:0:0:0:0:0:0:2181']],
    ['block blk_-1608999687919862906 and blk_38865049064139660', ['-1608999687919862906', '38865049064139660']],
    ['[Sun Dec 04 04:47:44 2005] [notice]', ['Sun', 'Dec', '04', '04:47:44', '2005']],
    ['Jul  1 09:00:55 calvisitor-10-105-160-95 kernel[0]:', ['Jul', '1', '09:00:55', '10-105-160-95', '0']],
    ['May the force; Sun Dec is near', []],
    ['a deadbeef cafe face', []],
    ['auto=-1, adj=+2, a-1, --5', ['-1', '+2', '1', '-5']],
    ['utf8 sha256 x86_64 jk2_init ssh2', ['8', '256', '86_64', '2', '2']],
    ['proxy.cse.cuhk.edu.hk:5070 clients1.google.com:443', ['5070', '1', '443']],
    ['attempt_1445144423722_0020_m_000000_0 v6.1.7601.23505', ['1445144423722_0020_m_000000_0', '6.1.7601.23505']],
    ['été 5€ 中文 12', ['5', '12']],
    ['\u001b[1;34mINFO\u001b[m took 5ms \u001b[38;5;196mx1', ['5', '1']],
    ['\u001b[', []],
    ['[=====>    ] 45%', ['=====>    ', '45']],
    ['a2abf6c4d29d: Downloading [==>   ]  2.4MB/31.36MB', ['a2abf6c4d29d', '==>   ', '2.4MB/31.36']],
    [' 45%|████▌     | 45/100', ['45', '████▌     ', '45/100']],
    ['⸨####⠂⠂⠂⸩ ⠧ reify: 3 left', ['####⠂⠂⠂', '3']],
    ['[==>   ] no digit in this line', []],
    ['| --- | 12 |, [..] 3, [ab=] 4', ['12', '3', '4']],
    ['', []],
  ])('%j -> %j', (line, fields) => {
    expect(volatileFields(line)).toEqual(fields);
  });

  it('shows templates with a placeholder and collapses column padding next to a field', () => {
    expect(templateText('PacketResponder 1 for block blk_-695 terminating')).toBe(
      'PacketResponder <*> for block blk_<*> terminating',
    );
    expect(templateText('Jun  1 x')).toBe('<*> <*> x');
    expect(templateText('a  b', '#')).toBe('a  b');
  });
});

const noCorpus = skipWithoutSharedCorpus('template fingerprints on real log lines (2 tests)');

describe(`template fingerprints (${backendName})`, () => {
  it('groups lines that differ only in volatile fields', () => {
    const text = [
      'took 5ms',
      '081109 203615 148 INFO dfs.DataNode$PacketResponder: PacketResponder 1 for block blk_38865049064139660 terminating',
      'took 12345ms',
      '081109 203807 222 INFO dfs.DataNode$PacketResponder: PacketResponder 0 for block blk_-6952295868487656571 terminating',
      'took many ms',
      'Jun 14 15:16:01 combo sshd(pam_unix)[19939]: check pass; user unknown',
      'Jul  1 09:02:26 combo sshd(pam_unix)[20882]: check pass; user unknown',
    ].join('\n');
    expect(templateGroups(text)).toEqual([
      ['took 5ms', 'took 12345ms'],
      [
        '081109 203615 148 INFO dfs.DataNode$PacketResponder: PacketResponder 1 for block blk_38865049064139660 terminating',
        '081109 203807 222 INFO dfs.DataNode$PacketResponder: PacketResponder 0 for block blk_-6952295868487656571 terminating',
      ],
      ['took many ms'],
      [
        'Jun 14 15:16:01 combo sshd(pam_unix)[19939]: check pass; user unknown',
        'Jul  1 09:02:26 combo sshd(pam_unix)[20882]: check pass; user unknown',
      ],
    ]);
  });

  it('keeps lines of different shape apart', () => {
    const groups = templateGroups(
      ['took 5ms', 'took 5 ms', 'took 5s', 'took  5ms', 'Took 5ms', 'a  b', 'a b'].join('\n'),
    );
    expect(groups).toHaveLength(6);
    expect(groups).toContainEqual(['took 5ms', 'took  5ms']);
  });

  it.skipIf(noCorpus)('equals the line fingerprint of the template (one U+FFFF per field) on real log lines', () => {
    const lines = corpusFiles()
      .filter((f) => f.folder === 'loghub' || f.folder === 'build-logs')
      .flatMap((f) => f.text.split('\n').slice(0, 150));
    // every line ends in LF, so a CR before it is never content
    const a = analyse(`${lines.join('\n')}\n`);
    const masked = analyse(
      `${lines.map((l) => templateText(l.endsWith('\r') ? l.slice(0, -1) : l, '\uffff')).join('\n')}\n`,
    );
    expect(masked.lines.count).toBe(a.lines.count);
    expect(Array.from(a.templateHashes.hashA)).toEqual(Array.from(masked.lines.hashA));
    expect(Array.from(a.templateHashes.hashB)).toEqual(Array.from(masked.lines.hashB));
  });

  it('gives a line without ASCII digits its exact fingerprint', () => {
    const a = analyse('no digits here\n\nMay the force be with you\r\nSun Dec is near\n中文 ünïcode');
    expect(Array.from(a.templateHashes.hashA)).toEqual(Array.from(a.lines.hashA));
    expect(Array.from(a.templateHashes.hashB)).toEqual(Array.from(a.lines.hashB));
  });

  it('treats CRLF and LF lines alike, and empty lines and texts as lines like any other', () => {
    const a = analyse('took 5ms\r\n\r\ntook 6ms\n\n');
    expect(Array.from(a.templates.group)).toEqual([0, 1, 0, 1]);
    expect(analyse('').templates.distinct).toBe(0);
  });

  it.skipIf(noCorpus)('collapses HDFS_2k.log to a few dozen templates', () => {
    const hdfs = corpusFiles().find((f) => f.name === 'HDFS_2k.log')!;
    const a = analyse(hdfs.text);
    expect(a.lines.count).toBe(2000);
    expect(a.templates.distinct).toBeGreaterThan(10);
    expect(a.templates.distinct).toBeLessThan(40);
  });

  it('rejects line ranges outside the text with a RangeError', () => {
    const backend = testBackend();
    backend.begin('abc\ndef');
    expect(() => backend.templateHashes(Int32Array.of(0), Int32Array.of(9), 1)).toThrow(RangeError);
    expect(() => backend.templateHashes(Int32Array.of(2), Int32Array.of(1), 1)).toThrow(RangeError);
    expect(() => backend.templateHashes(Int32Array.of(0), Int32Array.of(3), 2)).toThrow(RangeError);
  });
});

describe("the first volatile fields of lines, as the analysis reads them from the text's spans", () => {
  it("are each line's fields as read from the line alone, for every line of the log fixtures and every count asked", () => {
    let lines = 0;
    for (const fixture of fixtures('logs')) {
      const analysis = analyse(fixture.text);
      const rows = Array.from({ length: analysis.lines.count }, (_, i) => i);
      for (const most of [0, 1, 2, 4, 7, 0x7fffffff]) {
        const { spans, first } = analysis.volatileFields(rows, most);
        for (const i of rows) {
          const read: string[] = [];
          for (let f = first[i]!; f < first[i + 1]!; f++) read.push(fixture.text.slice(spans[2 * f], spans[2 * f + 1]));
          expect(read).toEqual(volatileFields(analysis.line(i)).slice(0, most));
        }
      }
      lines += rows.length;
    }
    expect(lines).toBeGreaterThan(1000);
  });

  it('are read whole on a line of more fields than any cap (a dump of 6,000 numbers)', () => {
    const line = Array.from({ length: 6000 }, (_, i) => `${i}`).join(' ');
    const analysis = analyse(`${line}\n${line}\n`);
    const { first, width } = analysis.volatileFields([0, 1], 0x7fffffff);
    expect(Array.from(first)).toEqual([0, 6000, 12000]);
    expect(width).toBe(6000);
  });
});
