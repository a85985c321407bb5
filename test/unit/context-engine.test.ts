// The context engine's parts without the harness: which results a rewrite
// takes (oldest first, outside the protected window), and what a taken result
// becomes, driven through a session stand-in with squeeze's real compressor.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ContextEngine,
  type EngineConfig,
  type EngineDeps,
  type Observation,
} from '../../src/adapters/dsh/context-engine.js';
import { selectBatch } from '../../src/adapters/dsh/context-engine/window.js';
import { ccrType, createSqueeze, idFrom, retrievalNotice } from '../../src/index.js';
import { backendName } from '../support/backend.js';

const corpus = (file: string) => readFileSync(join(import.meta.dirname, '../corpus/everyday', file), 'utf8');
const nodes = (turns: number[], replaceable = turns.map(() => true)) =>
  turns.map((turn, seq) => ({ seq, turn, replaceable: replaceable[seq]! }));
/** The id squeeze's store gives an original. */
const id24 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24);
const window = { protectFirstTurns: 0, protectLastTurns: 0, protectRecentResults: 1 };

describe('selectBatch', () => {
  it('takes every replaceable result but the newest, oldest first, in a single-turn session', () => {
    expect(selectBatch(nodes([1, 1, 1, 1, 1]), 1, window).map((n) => n.seq)).toEqual([0, 1, 2, 3]);
  });

  it('protects the last N results, the first and last turns, and skips what is not replaceable', () => {
    const all = nodes([1, 2, 2, 3, 3, 4, 5, 5], [true, true, false, true, true, true, true, true]);
    expect(selectBatch(all, 5, { ...window, protectRecentResults: 3 }).map((n) => n.seq)).toEqual([0, 1, 3, 4]);
    expect(selectBatch(all, 5, { ...window, protectFirstTurns: 2 }).map((n) => n.seq)).toEqual([3, 4, 5, 6]);
    expect(selectBatch(all, 5, { ...window, protectLastTurns: 2 }).map((n) => n.seq)).toEqual([0, 1, 3, 4]);
    expect(selectBatch(all, 5, { ...window, protectRecentResults: 8 })).toEqual([]);
  });
});

describe('ContextEngine: what a replaced result becomes', () => {
  const squeeze = createSqueeze({ backend: backendName, retainOriginal: false, store: null });
  const ways = { tool: 'ccr_retrieve' };
  const HOW_TO = /^\[original: /;

  /** One user turn of tool results on a session surface that takes replacements, as dsh-session's does. */
  function session() {
    type Message = {
      role: string;
      content: { type: string; toolCallId: string; content: { type: 'text'; text: string }[] }[];
    };
    type Event = { seq: number; type: string; surfaceOp: unknown; data: { turn: number; message: Message } };
    const events: Event[] = [];
    const nodes: number[] = [];
    const append = (
      type: string,
      data: Event['data'],
      options?: { surfaceOp: { op: 'replace'; start: number; end: number } },
    ) => {
      const seq = events.length;
      events.push({ seq, type, surfaceOp: options ? options.surfaceOp : 'append', data });
      if (options) nodes[nodes.indexOf(options.surfaceOp.start)] = seq;
      else nodes.push(seq);
      return { seq };
    };
    return {
      header: { id: 'unit' },
      surface: { nodes },
      events,
      append,
      deriveMessages: () => nodes.map((seq) => events[seq]!.data.message),
      result(callId: string, text: string) {
        append('tool/result', {
          turn: 1,
          message: {
            role: 'tool',
            content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text }] }],
          },
        });
      },
      /** What the model sees of a call's result now, and whether it was replaced. */
      shown(callId: string) {
        const event = events.find((e) => nodes.includes(e.seq) && e.data.message.content[0]?.toolCallId === callId);
        return {
          text: event?.data.message.content[0]?.content[0]?.text ?? '',
          replaced: typeof event?.surfaceOp === 'object',
        };
      },
    };
  }

  function engine(config: Partial<EngineConfig> = {}) {
    const store = new Map<string, string>();
    const idOf = id24;
    const deps: EngineDeps = {
      estimator: squeeze.estimator,
      compress: (text, call) => squeeze.compress(text, call),
      original: async (id) => store.get(id),
      async retain(text, source) {
        store.set(idOf(text), text);
        return retrievalNotice(idOf(text), source.type, Buffer.byteLength(text), undefined, ways);
      },
      shadowPrice: () => undefined,
      ledger: () => {},
      warn: (message) => {
        throw new Error(message);
      },
    };
    const full: EngineConfig = {
      protectFirstTurns: 0,
      protectLastTurns: 0,
      protectRecentResults: 1,
      contextEngineThresholdPct: 0,
      contextEngineBatchPct: 0,
      contextEngineKeepTools: [],
      contextWindowTokens: 100_000,
      ...config,
    };
    /** A result squeeze compressed on arrival: its output and notice, the original in the store. */
    const compressed = (text: string, toolName: string, command: string) => {
      const result = squeeze.compress(text, { toolName, command });
      expect(result.outcome).toBe('compressed');
      store.set(idOf(text), text);
      return {
        id: idOf(text),
        shown: `${result.output}\n${retrievalNotice(idOf(text), ccrType(toolName, false, text), Buffer.byteLength(text), undefined, ways, result.verdict?.line)}`,
      };
    };
    return { engine: new ContextEngine(full, deps), store, compressed };
  }

  const emergency = (text: string, toolName: string, command?: string) =>
    squeeze.compress(text, { toolName, ...(command ? { command } : {}), level: 'emergency', minTokens: 1 });

  it('a result squeeze left alone becomes its emergency form and a notice; the original is kept', async () => {
    const s = session();
    const { engine: e, store } = engine();
    const read = corpus('code/read-cart-ts.txt');
    const observe = (o: Observation, text: string) => {
      e.observe(o);
      s.result(o.callId, text);
    };
    observe({ callId: 'a', toolName: 'read', isError: false }, read);
    observe({ callId: 'b', toolName: 'read', isError: false }, corpus('code/read-ledger-rs.txt'));
    await e.preStep({ turn: 1, messages: [], agent: { session: s } });
    const { text, replaced } = s.shown('a');
    expect(replaced).toBe(true);
    const form = emergency(read, 'read').output.replace(/\n+$/, '');
    expect(text.startsWith(`${form}\n<<<CCR:`)).toBe(true);
    expect(text.split('\n').some((line) => HOW_TO.test(line))).toBe(false);
    expect(store.get(idFrom(text)!)).toBe(read);
    // the newest result is seen whole once
    expect(s.shown('b')).toEqual({ text: corpus('code/read-ledger-rs.txt'), replaced: false });
    expect(e.rewrites()).toBe(1);
  });

  it('a compressed test run keeps its failing tests and totals inline and the notice it was shown, less the how-to line', async () => {
    const s = session();
    const { engine: e, compressed } = engine();
    const pytest = corpus('build/pytest-v.txt');
    const command = 'python3 -m pytest -v';
    const arrived = compressed(pytest, 'bash', command);
    e.observe({ callId: 'a', toolName: 'bash', isError: false, command, id: arrived.id });
    s.result('a', arrived.shown);
    e.observe({ callId: 'b', toolName: 'read', isError: false });
    s.result('b', corpus('code/read-cart-ts.txt'));
    await e.preStep({ turn: 1, messages: [], agent: { session: s } });
    const { text, replaced } = s.shown('a');
    expect(replaced).toBe(true);
    const verdict = emergency(pytest, 'bash', command).verdict!;
    expect(verdict.facts.length).toBeGreaterThan(0);
    for (const fact of verdict.facts) expect(text).toContain(fact.keep);
    const notice = arrived.shown.slice(arrived.shown.lastIndexOf('<<<CCR:'));
    expect(
      text.endsWith(
        notice
          .split('\n')
          .filter((line) => !HOW_TO.test(line))
          .join('\n'),
      ),
    ).toBe(true);
    expect(text).toContain(`[${verdict.line}]`);
    expect(squeeze.estimator.estimate(text)).toBeLessThan(squeeze.estimator.estimate(arrived.shown) / 2);
  });

  it('leaves alone a failed call, an opted-out tool and a result its form would not halve; a batch under batchPct waits', async () => {
    const s = session();
    const { engine: e } = engine({ contextEngineKeepTools: ['grep'] });
    const big = corpus('code/read-ledger-rs.txt');
    const results: [Observation, string][] = [
      [{ callId: 'failed', toolName: 'read', isError: true }, big],
      [{ callId: 'kept', toolName: 'grep', isError: false }, corpus('grep/dsh-grep-throw.txt')],
      [
        { callId: 'small', toolName: 'bash', isError: false, command: 'tsc --noEmit -p .' },
        corpus('build/tsc-noemit.txt'),
      ],
      [{ callId: 'newest', toolName: 'read', isError: false }, big],
    ];
    for (const [o, text] of results) {
      e.observe(o);
      s.result(o.callId, text);
    }
    await e.preStep({ turn: 1, messages: [], agent: { session: s } });
    for (const [o, text] of results) expect(s.shown(o.callId)).toEqual({ text, replaced: false });
    expect(e.rewrites()).toBe(0);
    // a replaceable result whose saving is under the batch size: no rewrite (no prefix-cache break) yet
    const waiting = session();
    const { engine: patient } = engine({ contextEngineBatchPct: 50 });
    for (const callId of ['a', 'b']) {
      patient.observe({ callId, toolName: 'read', isError: false });
      waiting.result(callId, big);
    }
    await patient.preStep({ turn: 1, messages: [], agent: { session: waiting } });
    expect(waiting.shown('a').replaced).toBe(false);
    expect(patient.rewrites()).toBe(0);
  });
});
