// A Redis that accepts connections and never answers (a stopped or wedged
// server, a firewall that eats packets): every wait on it has a deadline, so
// the CLI exits with code 6 and says why instead of hanging, and close() gives
// up on a graceful close and drops the socket. No redis-server is needed: the
// silent server is a TCP listener on a loopback port.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../../src/store/redis-store.js';
import { spawnCli } from '../support/cli.js';

let server: Server;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  server = createServer((socket) => sockets.push(socket)); // accept, read nothing, answer nothing
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  url = `redis://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((closed) => server.close(closed));
});

describe('a Redis that never answers', () => {
  it('fails a put as unreachable and still closes', async () => {
    const store = new RedisStore({ url, timeoutMs: 500, warn: () => {} });
    await expect(store.put('some original text\n', { type: 'terminal' })).rejects.toThrow(/no answer within 500 ms/);
    // Before, this never settled: the handshake and the graceful close both wait for replies.
    await expect(store.close()).resolves.toBeUndefined();
  });

  it('makes compress and retrieve exit with code 6, no id, saying why', async () => {
    const log = `${Array.from({ length: 3000 }, (_, i) => `INFO request ${i} served`).join('\n')}\n`;
    const compressed = await spawnCli(['compress', '--store', url], { stdin: log });
    expect(compressed.code).toBe(6);
    expect(compressed.stderr).toMatch(/Redis redis:\/\/127\.0\.0\.1:\d+: no answer within 5000 ms/);
    expect(compressed.stdout.toString()).not.toMatch(/<<<CCR:/);
    const retrieved = await spawnCli(['retrieve', '--store', url, '0123456789abcdef01234567']);
    expect(retrieved.code).toBe(6);
    expect(retrieved.stderr).toMatch(/cannot read the store: Redis .*no answer within 5000 ms/);
  });
});
