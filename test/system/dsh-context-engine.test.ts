// The context engine in the real agent loop (scripted model, real
// SessionStore, real corpus outputs as tool results): what the model's
// requests contain when the engine rewrites history through the session
// surface, what stays retrievable, and that with the engine off nothing changes.
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, squeezePlugin, textOf, type AgentHarness, type Harness } from '../support/dsh-harness.js';
import {
  evidenceKept,
  evidenceLines,
  id24,
  messageText,
  prefixBreaks,
  runSession,
  sessionSteps,
  type SessionView,
} from '../support/history-session.js';

let harness: AgentHarness | Harness | undefined;
afterEach(() => harness?.close());

/** 16 steps over a 16,000-token window: the engine has to act several times. */
const STEPS = sessionSteps(16);
const WINDOW = 16_000;

const replacements = (session: SessionView) =>
  session.events.filter((e) => e.type === 'tool/result' && typeof e.surfaceOp === 'object');
/** Every request's messages, the random parts of spill paths (temp folder, file prefix) named the same in every run. */
const requestsText = (requests: readonly { messages: Parameters<typeof messageText>[0][] }[]) =>
  requests.map((r) =>
    r.messages
      .map((m) => JSON.stringify(m.content))
      .join('\n')
      .replace(/squeeze-dsh-[A-Za-z0-9]{6}/g, 'squeeze-dsh-TEMP')
      .replace(/\/[0-9a-f]{12}-/g, '/RANDOM-'),
  );

describe('the context engine in the agent loop', () => {
  it('off by default: the same requests as with it off, and the history is never rewritten', async () => {
    const byDefault = await runSession('squeeze', STEPS, { contextWindow: WINDOW });
    harness = byDefault.harness;
    const defaultRequests = requestsText(byDefault.requests);
    expect(replacements(byDefault.session)).toEqual([]);
    expect(byDefault.session.events.filter((e) => e.type === 'compaction/prune')).toEqual([]);
    byDefault.harness.close();
    // every engine key set, the switch off: still nothing
    const off = await runSession('squeeze', STEPS, {
      contextWindow: WINDOW,
      config: { contextEngine: false, contextEngineThresholdPct: 0, contextEngineBatchPct: 0, protectRecentResults: 0 },
    });
    harness = off.harness;
    expect(requestsText(off.requests)).toEqual(defaultRequests);
    expect(replacements(off.session)).toEqual([]);
    expect(prefixBreaks(off.requests)).toBe(0);
    // and the results did reach the model compressed (the comparison is not between two empty runs)
    expect(defaultRequests.at(-1)).toContain('<<<CCR:');
  });

  it('on: old results become digests in a few rewrites; every evidence line stays inline or retrievable', async () => {
    const run = await runSession('engine', STEPS, { contextWindow: WINDOW });
    harness = run.harness;
    const replaced = replacements(run.session);
    expect(replaced.length).toBeGreaterThan(0);
    const rewrites = run.harness.messages('info').filter((m) => m.startsWith('ccr: engine rewrite'));
    expect(rewrites.length).toBeGreaterThan(0);
    expect(rewrites.length).toBeLessThanOrEqual(5);
    expect(prefixBreaks(run.requests)).toBe(rewrites.length);
    // the last request is smaller than the history it stands for
    const last = run.requests.at(-1)!;
    const squeezed = await runSession('squeeze', STEPS, { contextWindow: WINDOW });
    const lastWithout = squeezed.requests.at(-1)!.messages.map(messageText).join('\n');
    squeezed.harness.close();
    expect(last.messages.map(messageText).join('\n').length).toBeLessThan(lastWithout.length / 2);
    // evidence: inline, or a marker whose original ccr_retrieve gives back
    const kept = evidenceKept(last, STEPS);
    expect(kept.total).toBe(evidenceLines(STEPS).length);
    expect(kept.total).toBeGreaterThan(10);
    expect(kept.missing).toEqual([]);
    const lastText = last.messages.map(messageText).join('\n');
    for (const { line, step } of evidenceLines(STEPS)) {
      if (lastText.includes(line)) continue;
      const back = await run.harness.call('ccr_retrieve', { hash: id24(STEPS[step]!.text) });
      expect(textOf(back)).toBe(STEPS[step]!.text);
    }
    // each replacement keeps the rest of the event and cites the original, which stays in the log
    for (const event of replaced) {
      const op = event.surfaceOp as { start: number; end: number };
      const original = run.session.events.find((e) => e.seq === op.start)!;
      expect(original.type).toBe('tool/result');
      expect(original.surfaceOp).toBe('append');
      expect(event.data.message.content[0].toolCallId).toBe(original.data.message.content[0].toolCallId);
      expect(messageText(event.data.message)).toMatch(/<<<CCR:[0-9a-f]{24}\|/);
    }
    // results squeeze left alone on arrival (reads shown whole, build logs whose verdict a cut would lose) are
    // replaced too, their originals kept by the engine: ccr_retrieve gives each back
    const leftAlone = replaced.filter(
      (event) =>
        !messageText(
          run.session.events.find((e) => e.seq === (event.surfaceOp as { start: number }).start)!.data.message,
        ).includes('<<<CCR:'),
    );
    expect(leftAlone.length).toBeGreaterThan(0);
    for (const event of leftAlone) {
      const original = messageText(
        run.session.events.find((e) => e.seq === (event.surfaceOp as { start: number }).start)!.data.message,
      );
      const id = /<<<CCR:([0-9a-f]{24})\|/.exec(messageText(event.data.message))![1]!;
      expect(textOf(await run.harness.call('ccr_retrieve', { hash: id }))).toBe(original);
    }
  });

  it('on: the ledger has a line per replaced result and a per-turn report', async () => {
    const run = await runSession('engine', STEPS, { contextWindow: WINDOW });
    harness = run.harness;
    const ledger = run.harness.messages('info').filter((m) => m.startsWith('ccr: engine'));
    const replacedLines = ledger.filter((l) => l.startsWith('ccr: engine replaced'));
    expect(replacedLines).toHaveLength(replacements(run.session).length);
    for (const line of replacedLines)
      expect(line).toMatch(/^ccr: engine replaced \w+ \(turn 1\) [\d,]+ -> [\d,]+ tokens$/);
    const reports = ledger.filter((l) => l.startsWith('ccr: engine report turn 1:'));
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.at(-1)).toMatch(
      new RegExp(`^ccr: engine report turn 1: ${replacedLines.length} results replaced, [\\d,]+ -> [\\d,]+ tokens$`),
    );
  });

  it('opted-out tools and the newest result are never replaced', async () => {
    const run = await runSession('engine', STEPS, {
      contextWindow: WINDOW,
      config: { contextEngineKeepTools: ['read'] },
    });
    harness = run.harness;
    const replaced = replacements(run.session);
    expect(replaced.length).toBeGreaterThan(0);
    const callTool = new Map(
      run.session.events
        .filter((e) => e.type === 'tool/call')
        .map((e) => [e.data.callId as string, e.data.name as string]),
    );
    for (const event of replaced) expect(callTool.get(event.data.message.content[0].toolCallId)).not.toBe('read');
    const newest = run.session.events.filter((e) => e.type === 'tool/result' && e.surfaceOp === 'append').at(-1)!;
    expect(replaced.map((e) => (e.surfaceOp as { start: number }).start)).not.toContain(newest.seq);
  });

  it("with DSH's token meter, pruner and compaction-basic: digests, pruned results and a summary in one session, no node replaced twice", async () => {
    // a 4,000-token window, so that DSH's pruner and summary both act (at 8,000 pruning alone kept its meter under 80%)
    const run = await runSession('engine+dsh', STEPS, { contextWindow: 4_000 });
    harness = run.harness;
    const replaced = replacements(run.session).map((e) => messageText(e.data.message));
    expect(replaced.filter((text) => /<<<CCR:/.test(text)).length).toBeGreaterThan(0);
    expect(replaced.filter((text) => text.includes('[... tool result middle pruned ...]')).length).toBeGreaterThan(0);
    expect(run.summaryRequests.length).toBeGreaterThan(0);
    const bySeq = new Map(run.session.events.map((e) => [e.seq, e]));
    for (const event of run.session.events.filter((e) => typeof e.surfaceOp === 'object')) {
      const op = event.surfaceOp as { start: number; end: number };
      // a result is replaced as it first arrived, never after another party replaced it
      if (event.type === 'tool/result') expect(bySeq.get(op.start)!.surfaceOp).toBe('append');
      // and every replacement is priced for the token meter right before it
      expect(bySeq.get(event.seq - 1)!.type).toMatch(/^compaction\/(prune|summary)$/);
    }
    // DSH's compaction may decline a summary the scripted model wrote longer than a short span
    // (reads within the read window arrive whole); it keeps the span and says so. Nothing else warns.
    const declined = /^step compaction failed: summary is not smaller than the shadowed content /;
    expect(run.harness.messages('warn').filter((m) => !declined.test(m))).toEqual([]);
  });

  it('rejects bad engine config at load, naming the key', async () => {
    harness = await createHarness();
    const load = (config: Record<string, unknown>) => harness!.ctx.plugin(squeezePlugin(), { logFile: '', ...config });
    await expect(load({ contextEngineThresholdPct: 101 })).rejects.toThrow(/contextEngineThresholdPct/);
    await expect(load({ contextEngineBatchPct: -1 })).rejects.toThrow(/contextEngineBatchPct/);
    await expect(load({ protectRecentResults: 1.5 })).rejects.toThrow(/protectRecentResults/);
    await expect(load({ contextEngineKeepTools: 'read' })).rejects.toThrow(/contextEngineKeepTools/);
  });

  it('results of exempt tools and failed calls are never replaced; a result squeeze left alone is', async () => {
    harness = await createHarness();
    const h = harness;
    await h.ctx.plugin(squeezePlugin(), { logFile: '', contextEngine: true, contextWindowTokens: 1000 });
    const read = STEPS[2]!.text; // a source file read: shown whole on arrival
    const calls = [
      { tool: 'ask_user_question', callId: 'answer', fail: false },
      { tool: 'bash', callId: 'failed', fail: true },
      { tool: 'read', callId: 'read', fail: false },
      { tool: 'glob', callId: 'newest', fail: false },
    ];
    const agent = { session: { header: { id: 'exempt' } } };
    const events: {
      seq: number;
      type: string;
      surfaceOp: unknown;
      data: { turn: number; message: { role: string; content: unknown[] } };
    }[] = [];
    for (const { tool, callId, fail } of calls) {
      h.tool(tool, read, { fail });
      const shown = textOf(await h.call(tool, {}, { agent, callId }));
      events.push({
        seq: events.length,
        type: 'tool/result',
        surfaceOp: 'append',
        data: {
          turn: 1,
          message: {
            role: 'user',
            content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text: shown }] }],
          },
        },
      });
    }
    const replaced: string[] = [];
    Object.assign(agent.session, {
      surface: { nodes: events.map((e) => e.seq) },
      events,
      deriveMessages: () => events.map((e) => e.data.message),
      requestContext: () => undefined,
      append: (_type: string, data: { message: { content: { toolCallId: string }[] } }, options?: unknown) => {
        if (options) replaced.push(data.message.content[0]!.toolCallId);
        return { seq: events.length };
      },
    });
    await h.ctx.waterfall(
      'agent/pre-step',
      { agent, messages: [], turn: 1, step: 5, signal: new AbortController().signal } as never,
      async () => ({ kind: 'enter', messages: [] }) as never,
    );
    expect(replaced).toEqual(['read']);
  });

  it('a session that refuses the replacement: one warning, the history and the turn go on', async () => {
    harness = await createHarness();
    const h = harness;
    await h.ctx.plugin(squeezePlugin(), { logFile: '', contextEngine: true, contextWindowTokens: 1000 });
    const text = STEPS[13]!.text; // pytest, failing
    h.tool('bash', text);
    const agent = { session: { header: { id: 'refusing' } } };
    await h.call('bash', { command: 'python3 -m pytest' }, { agent, callId: 'call-a' });
    await h.call('bash', { command: 'python3 -m pytest' }, { agent, callId: 'call-b' });
    const result = (seq: number, callId: string) => ({
      seq,
      type: 'tool/result',
      surfaceOp: 'append',
      data: {
        turn: 1,
        step: seq,
        message: {
          role: 'user',
          content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text }] }],
          source: { kind: 'tool', callId },
        },
      },
    });
    const events = [result(0, 'call-a'), result(1, 'call-b')];
    let appends = 0;
    Object.assign(agent.session, {
      surface: { nodes: [0, 1] },
      events,
      deriveMessages: () => events.map((e) => e.data.message),
      requestContext: () => undefined,
      append: () => {
        appends++;
        throw new Error('no replacing today');
      },
    });
    const decision = await h.ctx.waterfall(
      'agent/pre-step',
      { agent, messages: [], turn: 1, step: 3, signal: new AbortController().signal } as never,
      async () => ({ kind: 'enter', messages: [] }) as never,
    );
    expect(decision).toEqual({ kind: 'enter', messages: [] });
    expect(appends).toBe(1);
    expect(h.messages('warn').filter((m) => m.includes('context engine'))).toEqual([
      'squeeze: context engine: the session refused a replacement (no replacing today); the rest of the batch is kept',
    ]);
  });
});
