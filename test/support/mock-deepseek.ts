// A scripted stand-in for the DeepSeek chat-completions API on 127.0.0.1, for
// driving the real `dsh` CLI: it records every request body and answers each
// with an OpenAI-compatible SSE stream (the harness's adapter always streams),
// either text or tool calls, as the test's script decides.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WireToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

export interface WireMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content?: string | null | { type: string; text?: string }[];
  readonly tool_calls?: WireToolCall[];
  readonly tool_call_id?: string;
}

export interface WireTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description?: string; readonly parameters?: unknown };
}

/** A chat-completions request body as the harness sends it. */
export interface WireRequest {
  readonly model: string;
  readonly messages: WireMessage[];
  readonly tools?: WireTool[];
  readonly stream: boolean;
}

export type MockReply = { text: string } | { calls: { name: string; args: unknown }[] };

export interface MockDeepSeek {
  readonly baseURL: string;
  /** Every request, in arrival order (side requests such as the session title included). */
  readonly requests: WireRequest[];
  close(): Promise<void>;
}

/** The text of a wire message (string content or text parts). */
export function messageText(message: WireMessage): string {
  if (typeof message.content === 'string') return message.content;
  return (message.content ?? []).map((part) => part.text ?? '').join('');
}

/** SSE `data:` frames of one streamed completion, `[DONE]` last. */
function frames(reply: MockReply, turn: number): string[] {
  const chunk = (delta: object, finish: string | null) => ({
    id: `mock-${turn}`,
    object: 'chat.completion.chunk',
    model: 'mock',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const out: object[] = [];
  if ('text' in reply) {
    out.push(chunk({ role: 'assistant', content: reply.text }, null), chunk({}, 'stop'));
  } else {
    reply.calls.forEach((call, index) => {
      const fn = { name: call.name, arguments: JSON.stringify(call.args) };
      out.push(
        chunk(
          { role: 'assistant', tool_calls: [{ index, id: `call_${turn}_${index}`, type: 'function', function: fn }] },
          null,
        ),
      );
    });
    out.push(chunk({}, 'tool_calls'));
  }
  out.push({
    id: `mock-${turn}`,
    object: 'chat.completion.chunk',
    model: 'mock',
    choices: [],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
  return [...out.map((o) => JSON.stringify(o)), '[DONE]'];
}

/**
 * Starts the mock on a free loopback port. `script` sees the request and all
 * earlier ones and returns the reply; a throw answers HTTP 500 with its message.
 */
export async function startMockDeepSeek(
  script: (request: WireRequest, all: readonly WireRequest[]) => MockReply,
): Promise<MockDeepSeek> {
  const requests: WireRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body: Buffer[] = [];
    for await (const part of req) body.push(part as Buffer);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404).end();
      return;
    }
    const request = JSON.parse(Buffer.concat(body).toString('utf8')) as WireRequest;
    requests.push(request);
    let reply: MockReply;
    try {
      reply = script(request, requests);
    } catch (error) {
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: String(error) } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const data of frames(reply, requests.length)) res.write(`data: ${data}\n\n`);
    res.end();
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
