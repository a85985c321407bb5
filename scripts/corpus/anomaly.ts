// `npm run corpus:anomaly`: regenerates test/corpus/anomaly, outputs whose
// evidence no tool-specific rule names: failing items in resource listings,
// a failing syscall in a trace, kernel and systemd kill lines in journals,
// nulls and outliers in query results, diffs and logs over the ceiling, test
// runs with a failure, dependency trees with problems, logs that are not all
// UTF-8. Real tools run in a scratch folder (and on this repository's own
// history); the rows a real command would fill with this machine's details
// (pods, containers, journals, the kernel log) are written here, seeded.
// Each output's needles are picked by the written rule next to it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { HELD_OUT_RULE, isHeldOut } from './held-out.js';
import { pick, rng } from './random.js';

const OUT_DIR = resolve(import.meta.dirname, '../../test/corpus/anomaly');
const REPO = resolve(import.meta.dirname, '../..');
const MODULES = join(REPO, 'node_modules');
const SHOWN_ROOT = '/tmp/work';
/** This repository's history is read up to this commit, so regenerating gives the same text. */
const HISTORY_TIP = '7604af3';
const MAX_NEEDLE = 240;

type Folder = 'resources' | 'trace' | 'journal' | 'query' | 'history' | 'tests' | 'deps' | 'encoding';

interface Capture {
  readonly name: string;
  readonly folder: Folder;
  /** The command line the output is routed with (what the model ran). */
  readonly command: string;
  /** The written rule its needles follow. */
  readonly rule: string;
  /** The output (bytes for the non-UTF-8 logs). */
  readonly text: () => string | Buffer;
  readonly needles: (text: string) => string[];
  readonly synthetic?: boolean;
  readonly needs?: string;
}

function write(path: string, text: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function sh(cwd: string, command: string, env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync('bash', ['-c', `${command} 2>&1`], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', TZ: 'UTC', LC_ALL: 'C.UTF-8', ...env },
    encoding: 'utf8',
    timeout: 300_000,
    maxBuffer: 64 << 20,
  });
  return result.stdout ?? '';
}

const clip = (s: string) => {
  const t = s.trim();
  return t.length > MAX_NEEDLE ? t.slice(0, MAX_NEEDLE).trimEnd() : t;
};
const linesOf = (text: string) => text.split('\n');
/** Every line matching `re`, trimmed (and clipped), each once. */
const matching = (text: string, re: RegExp) => [
  ...new Set(
    linesOf(text)
      .filter((l) => re.test(l))
      .map(clip),
  ),
];

// ------------------------------------------------------------ resources

const NODES = ['worker-1', 'worker-2', 'worker-3', 'worker-4'];
const APPS = ['shop-api', 'shop-worker', 'checkout', 'search', 'mailer', 'thumbnailer', 'ledger', 'gateway'];
const suffix = (r: () => number, n: number) =>
  Array.from({ length: n }, () => pick(r, [...'bcdfghjklmnpqrstvwxz2456789'])).join('');

interface Pod {
  readonly namespace: string;
  readonly name: string;
  readonly node: string | null;
  readonly ip: string | null;
  /** null: running and ready. */
  readonly trouble:
    | null
    | 'CrashLoopBackOff'
    | 'OOMKilled'
    | 'ImagePullBackOff'
    | 'Unschedulable'
    | 'Error'
    | 'Evicted';
  readonly restarts: number;
  readonly age: string;
}

function pods(count: number, seed: number, troubles: Record<number, NonNullable<Pod['trouble']>>): Pod[] {
  const r = rng(seed);
  return Array.from({ length: count }, (_, i) => {
    const app = pick(r, APPS);
    const trouble = troubles[i] ?? null;
    const node = trouble === 'Unschedulable' ? null : pick(r, NODES);
    return {
      namespace: i % 9 === 0 ? 'kube-system' : i % 5 === 0 ? 'monitoring' : 'default',
      name: `${app}-${suffix(r, 9)}-${suffix(r, 5)}`,
      node,
      ip:
        node === null || trouble === 'ImagePullBackOff'
          ? null
          : `10.42.${Math.floor(r() * 4)}.${2 + Math.floor(r() * 250)}`,
      trouble,
      restarts: trouble === 'CrashLoopBackOff' ? 41 : trouble === 'OOMKilled' ? 7 : r() < 0.1 ? 1 : 0,
      age: `${1 + Math.floor(r() * 40)}d`,
    };
  });
}

const podTroubles = { 7: 'CrashLoopBackOff', 19: 'OOMKilled', 26: 'ImagePullBackOff', 33: 'Unschedulable' } as const;

function podJson(pod: Pod): unknown {
  const container = pod.name.split('-')[0];
  const image = `registry.local/${container}:1.4.${pod.name.length % 7}`;
  const started = '2025-03-01T09:12:00Z';
  const status =
    pod.trouble === 'Unschedulable'
      ? {
          phase: 'Pending',
          conditions: [
            {
              type: 'PodScheduled',
              status: 'False',
              reason: 'Unschedulable',
              message: `0/4 nodes are available: 4 Insufficient memory. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod ${pod.name}.`,
            },
          ],
          qosClass: 'Burstable',
        }
      : {
          phase: pod.trouble === null ? 'Running' : pod.trouble === 'ImagePullBackOff' ? 'Pending' : 'Running',
          conditions: [
            { type: 'Initialized', status: 'True', lastTransitionTime: started },
            { type: 'Ready', status: pod.trouble === null ? 'True' : 'False', lastTransitionTime: started },
            { type: 'PodScheduled', status: 'True', lastTransitionTime: started },
          ],
          hostIP: `10.0.0.${11 + NODES.indexOf(pod.node!)}`,
          podIP: pod.ip,
          startTime: started,
          containerStatuses: [
            {
              name: container,
              image,
              ready: pod.trouble === null,
              restartCount: pod.restarts,
              started: pod.trouble === null,
              state:
                pod.trouble === 'CrashLoopBackOff'
                  ? {
                      waiting: {
                        reason: 'CrashLoopBackOff',
                        message: `back-off 5m0s restarting failed container=${container} pod=${pod.name}_${pod.namespace}`,
                      },
                    }
                  : pod.trouble === 'ImagePullBackOff'
                    ? { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${image}-rc1"` } }
                    : { running: { startedAt: started } },
              lastState:
                pod.trouble === 'OOMKilled'
                  ? {
                      terminated: {
                        exitCode: 137,
                        reason: 'OOMKilled',
                        startedAt: started,
                        finishedAt: '2025-03-05T10:22:51Z',
                      },
                    }
                  : pod.trouble === 'CrashLoopBackOff'
                    ? {
                        terminated: {
                          exitCode: 1,
                          reason: 'Error',
                          startedAt: started,
                          finishedAt: '2025-03-05T10:20:02Z',
                        },
                      }
                    : {},
            },
          ],
          qosClass: 'Burstable',
        };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: pod.name,
      namespace: pod.namespace,
      labels: { app: pod.name.split('-').slice(0, -2).join('-'), 'pod-template-hash': pod.name.split('-').at(-2) },
      creationTimestamp: started,
    },
    spec: {
      containers: [
        {
          name: container,
          image,
          resources: { limits: { memory: '512Mi', cpu: '500m' }, requests: { memory: '256Mi', cpu: '100m' } },
          ports: [{ containerPort: 8080, protocol: 'TCP' }],
        },
      ],
      nodeName: pod.node ?? undefined,
      restartPolicy: 'Always',
    },
    status,
  };
}

function podTable(list: readonly Pod[]): string {
  const rows = [
    ['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'],
  ];
  for (const p of list) {
    const status = p.trouble === null ? 'Running' : p.trouble === 'Unschedulable' ? 'Pending' : p.trouble;
    rows.push([
      p.namespace,
      p.name,
      p.trouble === null ? '1/1' : '0/1',
      status,
      p.restarts === 0 ? '0' : `${p.restarts} (${(p.restarts % 9) + 1}m ago)`,
      p.age,
      p.ip ?? '<none>',
      p.node ?? '<none>',
      '<none>',
      '<none>',
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return `${rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('   ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

function dockerPs(): string {
  const r = rng(21);
  const rows = [['CONTAINER ID', 'IMAGE', 'COMMAND', 'CREATED', 'STATUS', 'PORTS', 'NAMES']];
  for (let i = 0; i < 70; i++) {
    const app = pick(r, APPS);
    const status =
      i === 23
        ? 'Exited (137) 4 minutes ago'
        : i === 41
          ? 'Up 2 hours (unhealthy)'
          : i === 58
            ? 'Restarting (1) 12 seconds ago'
            : `Up ${1 + Math.floor(r() * 9)} days`;
    rows.push([
      Array.from({ length: 12 }, () => pick(r, [...'0123456789abcdef'])).join(''),
      `shop/${app}:1.4.${Math.floor(r() * 9)}`,
      `"node dist/${app}.js"`,
      `${1 + Math.floor(r() * 9)} days ago`,
      status,
      i % 3 === 0 ? `0.0.0.0:${8000 + i}->8080/tcp` : '8080/tcp',
      `${app}-${i}`,
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return `${rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('   ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

// ------------------------------------------------------------ journals

function serviceJournal(): string {
  const r = rng(31);
  const out: string[] = [];
  let t = Date.UTC(2025, 2, 5, 6, 0, 0);
  const stamp = () => {
    t += 1000 + Math.floor(r() * 9000);
    const d = new Date(t);
    return `Mar 05 ${d.toISOString().slice(11, 19)}`;
  };
  out.push(`${stamp()} web-1 systemd[1]: Started shop-worker.service - Shop background worker.`);
  for (let i = 0; i < 1400; i++) {
    if (i === 913) {
      out.push(
        `${stamp()} web-1 kernel: shop-worker invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0`,
      );
      out.push(
        `${stamp()} web-1 kernel: Out of memory: Killed process 48121 (python3) total-vm:4123344kB, anon-rss:3411200kB, file-rss:0kB, shmem-rss:0kB, UID:1001 pgtables:7000kB oom_score_adj:0`,
      );
      out.push(`${stamp()} web-1 systemd[1]: shop-worker.service: Main process exited, code=killed, status=9/KILL`);
      out.push(`${stamp()} web-1 systemd[1]: shop-worker.service: Failed with result 'oom-kill'.`);
      out.push(`${stamp()} web-1 systemd[1]: shop-worker.service: Consumed 2h 41min 7.112s CPU time.`);
      out.push(`${stamp()} web-1 systemd[1]: shop-worker.service: Scheduled restart job, restart counter is at 1.`);
      out.push(`${stamp()} web-1 systemd[1]: Started shop-worker.service - Shop background worker.`);
      continue;
    }
    const pid = i < 913 ? 48121 : 51877;
    const task = pick(r, ['inventory.sync', 'mail.send', 'report.daily', 'thumbs.render', 'ledger.close']);
    const id = Math.floor(r() * 0xffff)
      .toString(16)
      .padStart(4, '0');
    out.push(
      r() < 0.03
        ? `${stamp()} web-1 shop-worker[${pid}]: WARNING Task ${task}[${id}] retry 1/3: upstream timeout`
        : `${stamp()} web-1 shop-worker[${pid}]: INFO Task ${task}[${id}] succeeded in ${(r() * 3).toFixed(3)}s`,
    );
  }
  return `${out.join('\n')}\n`;
}

function kernelLog(): string {
  const r = rng(41);
  const out: string[] = [];
  let t = 0;
  const stamp = () => {
    t += r() * 40;
    return `[${t.toFixed(6).padStart(12)}]`;
  };
  const boot = [
    'Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1',
    'Command line: BOOT_IMAGE=/vmlinuz-6.1.0-18-amd64 root=/dev/nvme0n1p2 ro quiet',
    'x86/fpu: Supporting XSAVE feature 0x001: x87 floating point registers',
    'BIOS-provided physical RAM map:',
    'ACPI: Early table checksum verification disabled',
    'PCI: Using configuration type 1 for base access',
    'EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Quota mode: none.',
  ];
  for (const line of boot) out.push(`${stamp()} ${line}`);
  for (let i = 0; i < 1100; i++) {
    const special: Record<number, string> = {
      311: 'shop-api[29811]: segfault at 0 ip 000055d0c1a2b3c4 sp 00007ffd5e6f7a80 error 4 in shop-api[55d0c1a00000+2b000] likely on CPU 2 (core 2, socket 0)',
      640: 'INFO: task jbd2/sdb1-8:412 blocked for more than 120 seconds.',
      641: '      Not tainted 6.1.0-18-amd64 #1 Debian 6.1.76-1',
      822: 'blk_update_request: I/O error, dev sdb, sector 1953525160 op 0x0:(READ) flags 0x80700 phys_seg 1 prio class 0',
      990: 'Out of memory: Killed process 48121 (python3) total-vm:4123344kB, anon-rss:3411200kB, file-rss:0kB, shmem-rss:0kB, UID:1001 pgtables:7000kB oom_score_adj:0',
    };
    const line =
      special[i] ??
      pick(r, [
        `IPv6: ADDRCONF(NETDEV_CHANGE): veth${suffix(r, 7)}: link becomes ready`,
        `cni0: port ${1 + Math.floor(r() * 9)}(veth${suffix(r, 7)}) entered forwarding state`,
        `cni0: port ${1 + Math.floor(r() * 9)}(veth${suffix(r, 7)}) entered disabled state`,
        `device veth${suffix(r, 7)} entered promiscuous mode`,
        `EXT4-fs (sdb1): mounted filesystem with ordered data mode. Quota mode: none.`,
        `audit: type=1400 audit(1741169${Math.floor(r() * 900) + 100}.412:${Math.floor(r() * 900)}): apparmor="STATUS" operation="profile_load" profile="unconfined" name="cri-containerd.apparmor.d" pid=${1000 + Math.floor(r() * 9000)} comm="apparmor_parser"`,
      ]);
    out.push(`${stamp()} ${line}`);
  }
  return `${out.join('\n')}\n`;
}

// ------------------------------------------------------------ scratch folder

function scratch(root: string): void {
  // A shell job that reads its data, then a config file that is not there.
  const job = join(root, 'job');
  for (let i = 0; i < 12; i++)
    write(
      join(job, `data/part-${String(i).padStart(2, '0')}.csv`),
      `id,qty\n${Array.from({ length: 20 }, (_, k) => `${k},${(k * 7 + i) % 13}`).join('\n')}\n`,
    );
  write(
    join(job, 'run.sh'),
    '#!/bin/sh\nfor f in data/*.csv; do\n  wc -l "$f" > /dev/null\n  sort -t, -k2 -n "$f" | tail -n 1 > /dev/null\ndone\nls -l data > /dev/null\nexec cat config/app.conf\n',
  );

  // An SQLite table of orders: amounts 20-400, one far outside; country always filled but once; a negative price.
  const db = join(root, 'db');
  mkdirSync(db, { recursive: true });
  const r = rng(51);
  const rows: string[] = [];
  for (let id = 1; id <= 400; id++) {
    const amount = id === 137 ? 998877.66 : Math.round((20 + r() * 380) * 100) / 100;
    const price = id === 305 ? -12.5 : Math.round((2 + r() * 60) * 100) / 100;
    const country = id === 211 ? 'NULL' : `'${pick(r, ['DE', 'FR', 'PL', 'NL', 'ES', 'IT'])}'`;
    const status = pick(r, ['paid', 'paid', 'paid', 'shipped', 'shipped', 'pending']);
    rows.push(
      `(${id},'${pick(r, ['ada', 'bruno', 'chen', 'dana', 'eve', 'finn', 'gus', 'hana'])}',${amount},${price},${country},'${status}')`,
    );
  }
  write(
    join(db, 'schema.sql'),
    `create table orders(id integer primary key, customer text not null, amount real, price real, country text, status text);\ninsert into orders values ${rows.join(',\n')};\n`,
  );
  sh(db, 'sqlite3 shop.db < schema.sql');

  // node:test suites with two failures among 260 tests.
  const suite = join(root, 'suite');
  const cases = Array.from({ length: 260 }, (_, i) => {
    const broken = i === 97 || i === 211;
    const expected = (i * 3) % 17;
    return `test('price rule ${i} rounds to cents', () => {\n  assert.equal(rule(${i}), ${broken ? expected + 1 : expected});\n});\n`;
  });
  write(
    join(suite, 'test/rules.test.js'),
    `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n\nconst rule = (i) => (i * 3) % 17;\n\n${cases.join('\n')}`,
  );
  write(join(suite, 'package.json'), '{ "name": "suite", "private": true, "type": "module" }\n');
  // vitest: 150 tests, two failing.
  write(
    join(suite, 'vt/cart.test.js'),
    `import { describe, expect, it } from 'vitest';\n\nconst total = (n) => n * 250;\n\ndescribe('cart', () => {\n${Array.from(
      { length: 150 },
      (_, i) =>
        `  it('totals ${i} items', () => {\n    expect(total(${i})).toBe(${i === 44 || i === 120 ? i * 250 + 5 : i * 250});\n  });\n`,
    ).join('')}});\n`,
  );
  spawnSync('ln', ['-s', MODULES, join(suite, 'node_modules')]);
  // pytest: 320 parametrised cases, one failing.
  write(
    join(root, 'py/test_stock.py'),
    'import pytest\n\n\ndef reserve(stock, qty):\n    if qty > stock:\n        raise ValueError("not enough stock")\n    return stock - qty\n\n\n@pytest.mark.parametrize("stock,qty", [(s, q) for s in range(20) for q in range(16)])\ndef test_reserve(stock, qty):\n    if qty > stock:\n        with pytest.raises(ValueError):\n            reserve(stock, qty)\n    else:\n        assert reserve(stock, qty) == stock - qty - (1 if (stock, qty) == (17, 3) else 0)\n',
  );

  // An npm tree of 90 packages with an invalid version, a missing dependency and an extraneous package.
  const tree = join(root, 'npmtree');
  const tr = rng(61);
  const names = Array.from(
    { length: 90 },
    (_, i) =>
      `${pick(tr, ['fast', 'tiny', 'safe', 'micro', 'lazy', 'pure'])}-${pick(tr, ['glob', 'json', 'path', 'color', 'args', 'queue', 'cache', 'stream'])}-${i}`,
  );
  const version = (i: number) => `${1 + (i % 4)}.${i % 7}.${i % 3}`;
  for (let i = 0; i < names.length; i++) {
    const deps: Record<string, string> = {};
    for (const k of [i * 2 + 1, i * 2 + 2]) if (k < names.length) deps[names[k]!] = `^${version(k)}`;
    if (i === 12) deps['left-pad'] = '^1.3.0'; // missing
    const installed = i === 37 ? '0.9.0' : version(i); // invalid against its parent's range
    write(
      join(tree, 'node_modules', names[i]!, 'package.json'),
      `${JSON.stringify({ name: names[i], version: installed, dependencies: deps })}\n`,
    );
  }
  write(join(tree, 'node_modules/left-over/package.json'), '{ "name": "left-over", "version": "2.0.0" }\n'); // extraneous
  write(
    join(tree, 'package.json'),
    `${JSON.stringify({ name: 'npmtree', version: '1.0.0', dependencies: { [names[0]!]: `^${version(0)}` } }, null, 2)}\n`,
  );

  // Logs that are not all UTF-8: a Latin-1 application log, and a build log with one stray byte.
  const logs = join(root, 'logs');
  mkdirSync(logs, { recursive: true });
  write(
    join(logs, 'latin1.py'),
    [
      'import logging, random',
      'random.seed(7)',
      'h = logging.FileHandler("app.log", encoding="latin-1")',
      'h.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))',
      'log = logging.getLogger("orders"); log.addHandler(h); log.setLevel(logging.INFO)',
      'names = ["Müller", "Ødegård", "García", "Lefèvre", "Nowak", "Smith"]',
      'for i in range(3000):',
      '    if i == 1777: log.error("order 81234 failed: payment gateway returned 502 for customer Nowak")',
      '    elif i == 2410: log.error("order 90311 failed: stock reservation timed out after 30s")',
      '    else: log.info("order %d placed by %s, %d items", 80000 + i, random.choice(names), random.randint(1, 9))',
    ].join('\n'),
  );
  write(
    join(logs, 'stray.py'),
    [
      'import random',
      'random.seed(9)',
      'with open("build.log", "wb") as f:',
      '    for i in range(2400):',
      '        if i == 1203: f.write(b"[ 51%] Building C object src/CMakeFiles/ring.dir/\\xff\\xfering.c.o\\n")',
      "        elif i == 2001: f.write(b\"src/ring.c:88:12: error: 'struct ring' has no member named 'tail'\\n\")",
      '        elif i == 2002: f.write(b"make[2]: *** [src/CMakeFiles/ring.dir/build.make:76: src/CMakeFiles/ring.dir/ring.c.o] Error 1\\n")',
      '        else: f.write(("[%3d%%] Building C object src/CMakeFiles/unit%d.dir/unit%d.c.o\\n" % (i * 100 // 2400, i, i)).encode())',
    ].join('\n'),
  );
}

// ------------------------------------------------------------ captures

function captures(root: string): Capture[] {
  const c: Capture[] = [];
  const podList = pods(40, 11, podTroubles);
  const tablePods = pods(220, 12, {
    14: 'CrashLoopBackOff',
    57: 'OOMKilled',
    98: 'ImagePullBackOff',
    133: 'Unschedulable',
    170: 'Error',
    201: 'Evicted',
  });
  const troubled = (list: readonly Pod[]) => list.filter((p) => p.trouble !== null);

  c.push({
    name: 'kubectl-pods-json',
    folder: 'resources',
    command: 'kubectl get pods -o json',
    rule: 'each pod that is not running and ready: its "name", and every "reason" and "message" under its status',
    synthetic: true,
    text: () =>
      `${JSON.stringify({ apiVersion: 'v1', kind: 'List', items: podList.map(podJson), metadata: { resourceVersion: '' } }, null, 4)}\n`,
    needles: (text) =>
      troubled(podList).flatMap((pod) => {
        const item = JSON.stringify(podJson(pod), null, 4);
        const values = [...item.matchAll(/"(reason|message)": ("(?:[^"\\]|\\.)*")/g)].map((m) =>
          clip(`"${m[1]}": ${m[2]}`),
        );
        return [`"name": "${pod.name}"`, ...new Set(values)].filter((n) => text.includes(n));
      }),
  });
  c.push({
    name: 'kubectl-pods-wide',
    folder: 'resources',
    command: 'kubectl get pods -A -o wide',
    rule: 'each row whose READY is short of its total or whose STATUS is not Running: the whole row',
    synthetic: true,
    text: () => podTable(tablePods),
    needles: (text) =>
      linesOf(text)
        .filter((l) => / 0\/1 /.test(l))
        .map(clip),
  });
  c.push({
    name: 'docker-ps-a',
    folder: 'resources',
    command: 'docker ps -a',
    rule: 'each container whose STATUS is not plain "Up …": the whole row',
    synthetic: true,
    text: dockerPs,
    needles: (text) =>
      linesOf(text)
        .slice(1)
        .filter((l) => l.trim() !== '' && !/ {2}Up \d+ days? {2}/.test(l))
        .map(clip),
  });
  c.push({
    name: 'strace-missing-config',
    folder: 'trace',
    command: 'strace -f sh ./run.sh',
    rule: 'every call on a path under config/ that returns -1, and every "+++ exited with N +++" with N > 0 (without the [pid N] prefix)',
    needs: 'strace',
    text: () => sh(join(root, 'job'), 'env -i PATH=/usr/bin strace -f sh ./run.sh'),
    needles: (text) =>
      [...matching(text, /"config\/[^"]*".*= -1 E/), ...matching(text, /\+\+\+ exited with [1-9]\d* \+\+\+/)].map((l) =>
        l.replace(/^\[pid\s+\d+\]\s+|^\d+\s+/, ''),
      ),
  });
  c.push({
    name: 'strace-connect-refused',
    folder: 'trace',
    command: 'strace -f curl -sS http://127.0.0.1:9/health',
    rule: 'every connect() that returns -1, curl\'s own error line, and every "+++ exited with N +++" with N > 0',
    needs: 'strace',
    text: () => sh(root, 'env -i PATH=/usr/bin strace -f curl -sS http://127.0.0.1:9/health'),
    needles: (text) =>
      [
        ...matching(text, /^(?:\[pid\s+\d+\] )?connect\(.*= -1 E/),
        ...matching(text, /^curl: \(\d+\)/),
        ...matching(text, /\+\+\+ exited with [1-9]\d* \+\+\+/),
      ].map((l) => l.replace(/^\[pid\s+\d+\]\s+/, '')),
  });
  c.push({
    name: 'journal-oom-kill',
    folder: 'journal',
    command: 'journalctl -u shop-worker --since today',
    rule: 'every kernel line, every systemd line about the unit that is not "Started", and every WARNING line',
    synthetic: true,
    text: serviceJournal,
    needles: (text) => [
      ...matching(text, / kernel: /),
      ...matching(text, /systemd\[1\]: shop-worker\.service: /),
      ...matching(text, / WARNING /),
    ],
  });
  c.push({
    name: 'dmesg',
    folder: 'journal',
    command: 'dmesg',
    rule: 'segfault, blocked task, I/O error and out-of-memory kill lines',
    synthetic: true,
    text: kernelLog,
    needles: (text) => matching(text, /segfault at|blocked for more than|I\/O error|Out of memory: Killed/),
  });
  const sql = (mode: string) => `sqlite3 ${mode} shop.db 'select * from orders order by id'`;
  const oddIds = /^(?:\D*?)\b(137|211|305)\b/;
  for (const [name, mode] of [
    ['sqlite3-column', '-header -column'],
    ['sqlite3-box', '-box'],
    ['sqlite3-csv', '-csv -header'],
  ] as const)
    c.push({
      name,
      folder: 'query',
      command: sql(mode),
      rule: 'the rows with an amount far outside the rest (137), a NULL country (211) and a negative price (305): the whole row',
      needs: 'sqlite3',
      text: () => sh(join(root, 'db'), sql(mode)),
      needles: (text) =>
        linesOf(text)
          .filter((l) => oddIds.test(l.replace(/^[│|]\s*/, '')))
          .map(clip),
    });
  c.push({
    name: 'sqlite3-json',
    folder: 'query',
    command: sql('-json'),
    rule: 'the records with an amount far outside the rest (137), a null country (211) and a negative price (305): the whole record',
    needs: 'sqlite3',
    text: () => sh(join(root, 'db'), sql('-json')),
    needles: (text) =>
      matching(text, /^\[?\{"id":(137|211|305),/).map((l) => clip(l.replace(/^\[/, '').replace(/[,\]]$/, ''))),
  });
  const git = (args: string) => `git -c core.pager=cat ${args}`;
  c.push({
    name: 'git-diff-41-files',
    folder: 'history',
    command: `git diff ${HISTORY_TIP}~16 ${HISTORY_TIP}`,
    rule: 'every diff --git header (each file the change touches)',
    text: () => sh(REPO, git(`diff ${HISTORY_TIP}~16 ${HISTORY_TIP}`)),
    needles: (text) => matching(text, /^diff --git /),
  });
  c.push({
    name: 'git-log-p',
    folder: 'history',
    command: `git log -p -n 12 ${HISTORY_TIP} -- src`,
    rule: 'every commit header line',
    text: () => sh(REPO, git(`log -p -n 12 ${HISTORY_TIP} -- src`)),
    needles: (text) => matching(text, /^commit [0-9a-f]{40}/),
  });
  c.push({
    name: 'git-log-stat',
    folder: 'history',
    command: `git log --stat -n 150 ${HISTORY_TIP}`,
    rule: 'every commit header line',
    text: () => sh(REPO, git(`log --stat -n 150 ${HISTORY_TIP}`)),
    needles: (text) => matching(text, /^commit [0-9a-f]{40}/),
  });
  const failing = 'the failing tests\' "not ok"/✖/FAIL lines, their expected and actual values, and the failure count';
  c.push({
    name: 'node-test-tap',
    folder: 'tests',
    command: 'node --test --test-reporter=tap',
    rule: failing,
    text: () => sh(join(root, 'suite'), 'node --test --test-reporter=tap test/'),
    needles: (text) => [
      ...matching(text, /^\s*not ok \d+ - /),
      ...matching(text, /^\s+(?:expected|actual): \d+$/),
      ...matching(text, /^# fail \d+/),
    ],
  });
  c.push({
    name: 'node-test-spec',
    folder: 'tests',
    command: 'node --test',
    rule: failing,
    text: () => sh(join(root, 'suite'), 'node --test --test-reporter=spec test/'),
    needles: (text) => [
      ...matching(text, /^\s*✖ price rule/),
      ...matching(text, /^\s+\d+ !== \d+$/),
      ...matching(text, /^ℹ fail \d+/),
    ],
  });
  c.push({
    name: 'vitest',
    folder: 'tests',
    command: 'npx vitest run',
    rule: failing,
    text: () => sh(join(root, 'suite'), 'npx vitest run vt'),
    needles: (text) => [
      ...matching(text, /^\s*(?:FAIL|×) .*totals \d+ items/),
      ...matching(text, /^AssertionError: /),
      ...matching(text, /^\s+Tests\s+\d+ failed/),
    ],
  });
  c.push({
    name: 'pytest-v',
    folder: 'tests',
    command: 'python3 -m pytest -v',
    rule: 'the FAILED lines, the "E " assertion lines, and the summary line',
    needs: 'python3',
    text: () => sh(join(root, 'py'), 'python3 -m pytest -v -p no:cacheprovider test_stock.py'),
    needles: (text) => [
      ...matching(text, /^FAILED |FAILED\s+\[/),
      ...matching(text, /^E\s+/),
      ...matching(text, /=+ \d+ failed/),
    ],
  });
  c.push({
    name: 'npm-ls-problems',
    folder: 'deps',
    command: 'npm ls --all',
    rule: 'every tree line that says invalid, UNMET DEPENDENCY or extraneous, and every "npm error" line naming a package',
    text: () => sh(join(root, 'npmtree'), 'npm ls --all'),
    needles: (text) =>
      [...matching(text, /invalid|UNMET DEPENDENCY|extraneous/)]
        .map((l) => l.replace(/^[│├└─┬\s]+/, ''))
        .filter((l) => l.length >= 4),
  });
  c.push({
    name: 'latin1-app-log',
    folder: 'encoding',
    command: 'cat logs/app.log',
    rule: 'every ERROR line (ASCII only, so the needle reads the same however the bytes are decoded)',
    needs: 'python3',
    text: () => {
      spawnSync('python3', ['latin1.py'], { cwd: join(root, 'logs') });
      return spawnSync('cat', ['app.log'], { cwd: join(root, 'logs') }).stdout;
    },
    needles: (text) => matching(text, / ERROR /).map((l) => l.replace(/^\S+ \S+ /, '')),
  });
  c.push({
    name: 'build-log-stray-byte',
    folder: 'encoding',
    command: 'cat build/build.log',
    rule: "the compiler error and make's Error line",
    needs: 'python3',
    text: () => {
      spawnSync('python3', ['stray.py'], { cwd: join(root, 'logs') });
      return spawnSync('cat', ['build.log'], { cwd: join(root, 'logs') }).stdout;
    },
    needles: (text) => matching(text, /error: |\] Error \d+/),
  });
  return c;
}

interface ManifestEntry {
  file: string;
  folder: Folder;
  tool: string;
  command: string;
  heldOut: boolean;
  synthetic: boolean;
  utf8: boolean;
  bytes: number;
  needles: number;
  rule: string;
}

/** The scratch folder shows as /tmp/work, the home folder as ~; test timings are fixed so regenerating gives small diffs. */
function normalise(text: string, root: string, folder: Folder): string {
  const out = text.split(root).join(SHOWN_ROOT).split(`${homedir()}/`).join('~/');
  return folder === 'tests'
    ? out.replace(/\b\d+(?:\.\d+)?(ms|s)\b/g, '1$1').replace(/duration_ms:? \d+(?:\.\d+)?/g, 'duration_ms 1')
    : out;
}

function main(): void {
  const root = mkdtempSync(join(tmpdir(), 'squeeze-anomaly-'));
  const entries: ManifestEntry[] = [];
  const skipped: { name: string; why: string }[] = [];
  try {
    scratch(root);
    const specs = captures(root);
    // Only what this script writes is replaced (README.md is kept).
    for (const folder of new Set(specs.map((spec) => spec.folder)))
      rmSync(join(OUT_DIR, folder), { recursive: true, force: true });
    for (const spec of specs) {
      if (spec.needs && spawnSync('bash', ['-c', `command -v ${spec.needs}`]).status !== 0) {
        skipped.push({ name: spec.name, why: `${spec.needs} not installed` });
        continue;
      }
      const raw = spec.text();
      const bytes = typeof raw === 'string' ? Buffer.from(normalise(raw, root, spec.folder)) : raw;
      const text = bytes.toString('utf8');
      const needles = [...new Set(spec.needles(text))].filter((n) => n.length >= 4 && text.includes(n));
      if (needles.length === 0) {
        skipped.push({ name: spec.name, why: `no needles (${text.trim().split('\n')[0]?.slice(0, 120) ?? 'empty'})` });
        process.stderr.write(`skip ${spec.name}: no needles\n`);
        continue;
      }
      const file = `${spec.folder}/${spec.name}.txt`;
      write(join(OUT_DIR, file), bytes);
      write(
        join(OUT_DIR, spec.folder, `${spec.name}.needles.json`),
        `${JSON.stringify(
          {
            tool: 'bash',
            type: 'text',
            kind: spec.folder,
            command: spec.command,
            file: `${spec.name}.txt`,
            needles,
            needle_rules: `scripts/corpus/anomaly.ts, capture "${spec.name}": ${spec.rule}`,
          },
          null,
          2,
        )}\n`,
      );
      entries.push({
        file,
        folder: spec.folder,
        tool: 'bash',
        command: spec.command,
        heldOut: isHeldOut(spec.name),
        synthetic: spec.synthetic === true,
        utf8: !text.includes('\ufffd'),
        bytes: bytes.length,
        needles: needles.length,
        rule: spec.rule,
      });
      process.stderr.write(`${file}: ${bytes.length} bytes, ${needles.length} needles\n`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  write(
    join(OUT_DIR, 'manifest.json'),
    `${JSON.stringify({ generatedBy: 'npm run corpus:anomaly (scripts/corpus/anomaly.ts)', workspace: SHOWN_ROOT, historyTip: HISTORY_TIP, heldOutRule: HELD_OUT_RULE, skipped, files: entries }, null, 2)}\n`,
  );
  process.stderr.write(`${entries.length} files, ${skipped.length} skipped\n`);
}

main();
