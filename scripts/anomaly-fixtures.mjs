// Writes test/fixtures/anomalies/ and the query tables of test/fixtures/table/: outputs of real tools on this machine
// (strace, sqlite3, psql against a throwaway cluster, column) and two
// synthetic ones where the real command would print this machine's details or
// needs a cluster it does not have (a service journal, `kubectl get pods -o
// json`). Each holds a few rows or lines that stand out only by being rare
// here; the `.keep.json` beside it names them. Run: node scripts/anomaly-fixtures.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const FIXTURES = resolve(import.meta.dirname, '../test/fixtures');
const scratch = mkdtempSync(join(tmpdir(), 'squeeze-anomalies-'));
const run = (program, args, options = {}) => execFileSync(program, args, { encoding: 'utf8', ...options });
/** `folder/name` and its `.keep.json` (the strings the compressed output must show). */
const write = (path, text, keep) => {
  writeFileSync(join(FIXTURES, path), text.endsWith('\n') ? text : `${text}\n`);
  writeFileSync(join(FIXTURES, `${path.replace(/\.[^.]+$/, '')}.keep.json`), `${JSON.stringify(keep, null, 2)}\n`);
};

// strace -f of a command whose one real failure is a missing config file.
{
  const trace = join(scratch, 'trace');
  try {
    run('strace', ['-f', '-o', trace, 'sh', '-c', 'ls -l /etc > /dev/null; cat /etc/myapp/config.toml'], {
      env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
      stdio: 'ignore',
    });
  } catch {
    // cat fails: that is the point
  }
  const text = readFileSync(trace, 'utf8');
  const failure = text.split('\n').find((l) => l.includes('"/etc/myapp/config.toml", O_RDONLY) = -1 ENOENT'));
  write('anomalies/strace-missing-config.txt', text, [failure]);
}

// 200 orders; one amount far above the rest, one negative price, one NULL email.
const orders = [];
for (let id = 1; id <= 200; id++) {
  const amount = id === 137 ? 998877.66 : 20 + ((id * 37) % 380) + ((id * 13) % 100) / 100;
  const price = id === 61 ? -4.5 : 5 + ((id * 7) % 40) + 0.99;
  const email = id === 88 ? null : `customer${(id * 17) % 97}@example.com`;
  const status = ['paid', 'shipped', 'delivered'][id % 3];
  orders.push({ id, email, status, amount: amount.toFixed(2), price: price.toFixed(2) });
}
const sql = [
  'CREATE TABLE orders (id INTEGER PRIMARY KEY, email TEXT, status TEXT, amount NUMERIC(12,2), price NUMERIC(8,2));',
  ...orders.map(
    (o) =>
      `INSERT INTO orders VALUES (${o.id}, ${o.email === null ? 'NULL' : `'${o.email}'`}, '${o.status}', ${o.amount}, ${o.price});`,
  ),
].join('\n');

{
  const db = join(scratch, 'orders.db');
  run('sqlite3', [db], { input: sql });
  const query = 'SELECT id, email, status, amount, price FROM orders ORDER BY id;';
  const column = run('sqlite3', ['-header', '-column', db, query]);
  const line = (id) => column.split('\n').find((l) => l.startsWith(`${id} `));
  write('table/sqlite-column-orders.txt', column, [line(137), line(61), line(88)]);
  const box = run('sqlite3', ['-box', db, query]);
  const boxLine = (id) => box.split('\n').find((l) => l.startsWith(`│ ${id} `));
  write('table/sqlite-box-orders.txt', box, [boxLine(137), boxLine(61), boxLine(88)]);
  // One JSON document, a record a line: the records that stand out, as printed.
  const json = run('sqlite3', ['-json', db, query]);
  const record = (id) =>
    json
      .split('\n')
      .find((l) => l.replace(/^\[/, '').startsWith(`{"id":${id},`))
      .replace(/^\[/, '')
      .replace(/[,\]]+$/, '');
  write('anomalies/sqlite-json-orders.txt', json, [record(137), record(61), record(88)]);
}

// psql against a throwaway cluster (initdb refuses root: run as postgres when root).
{
  const data = join(scratch, 'pg');
  const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  const pg = (program, args, options) =>
    run(asPostgres[0] ?? program, [...asPostgres.slice(1), ...(asPostgres.length ? [program] : []), ...args], options);
  run('chmod', ['777', scratch]);
  pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres'], { stdio: 'ignore' });
  pg('pg_ctl', ['-D', data, '-o', `-k ${scratch} -c listen_addresses=''`, '-w', 'start'], { stdio: 'ignore' });
  try {
    pg('psql', ['-h', scratch, '-U', 'postgres', '-q', '-v', 'ON_ERROR_STOP=1'], { input: sql });
    const table = pg('psql', [
      '-h',
      scratch,
      '-U',
      'postgres',
      '-c',
      'SELECT id, email, status, amount, price FROM orders ORDER BY id;',
    ]);
    const line = (id) => table.split('\n').find((l) => new RegExp(`^ +${id} \\|`).test(l));
    write('table/psql-orders.txt', table, [line(137), line(61), line(88)]);
  } finally {
    pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop'], { stdio: 'ignore' });
  }
}

// `column -t` over a service inventory: two services down among 400.
{
  const rows = ['SERVICE HOST STATE RESTARTS UPTIME'];
  for (let i = 1; i <= 400; i++) {
    const state = i === 47 ? 'failed' : i === 293 ? 'activating' : 'running';
    const restarts = i === 47 ? 14 : i === 293 ? 3 : 0;
    rows.push(`svc-${String(i).padStart(3, '0')} node-${(i % 7) + 1} ${state} ${restarts} ${((i * 11) % 90) + 1}d`);
  }
  const table = run('column', ['-t'], { input: `${rows.join('\n')}\n` });
  const line = (name) => table.split('\n').find((l) => l.startsWith(name));
  write('table/column-services.txt', table, [line('svc-047'), line('svc-293')]);
}
// A service journal (synthetic: `journalctl -u orders` here would print this
// machine's journal, and it has none): requests, then the kernel's OOM kill
// and systemd's restart, then requests again.
{
  const lines = [];
  const at = (second) => {
    const s = 13 * 3600 + 10 * 60 + second;
    const two = (n) => String(n).padStart(2, '0');
    return `Dec 02 ${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
  };
  const paths = ['/api/orders', '/api/orders/{id}', '/api/customers/{id}', '/healthz'];
  for (let i = 0; i < 700; i++) {
    const second = Math.floor(i / 4);
    if (i === 400) {
      lines.push(
        `${at(second)} web-01 kernel: java invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0`,
        `${at(second)} web-01 kernel: oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/system.slice/orders.service,task_memcg=/system.slice/orders.service,task=java,pid=4242,uid=1000`,
        `${at(second)} web-01 kernel: Memory cgroup out of memory: Killed process 4242 (java) total-vm:8123456kB, anon-rss:4012344kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:8344kB oom_score_adj:0`,
        `${at(second)} web-01 systemd[1]: orders.service: A process of this unit has been killed by the OOM killer.`,
        `${at(second)} web-01 systemd[1]: orders.service: Main process exited, code=killed, status=9/KILL`,
        `${at(second)} web-01 systemd[1]: orders.service: Failed with result 'oom-kill'.`,
        `${at(second)} web-01 systemd[1]: orders.service: Consumed 2h 3min 4.512s CPU time.`,
        `${at(second + 5)} web-01 systemd[1]: orders.service: Scheduled restart job, restart counter is at 1.`,
        `${at(second + 5)} web-01 systemd[1]: Started orders.service - Orders API.`,
      );
    }
    const path = paths[i % paths.length].replace('{id}', String(1000 + ((i * 37) % 900)));
    const status = i % 23 === 0 ? 304 : 200;
    lines.push(`${at(second)} web-01 orders[${i < 400 ? 4242 : 5120}]: GET ${path} ${status} ${3 + ((i * 7) % 40)}ms`);
  }
  const text = lines.join('\n');
  write('anomalies/journal-oom-kill.txt', text, [
    lines.find((l) => l.includes('Killed process 4242')),
    lines.find((l) => l.includes('code=killed, status=9/KILL')),
    lines.find((l) => l.includes("Failed with result 'oom-kill'")),
  ]);
}

// `kubectl get pods -o json` (synthetic: no cluster here), 40 pods of which a
// few crash-loop, were OOM-killed, cannot be scheduled or cannot pull.
{
  const trouble = {
    7: 'CrashLoopBackOff',
    15: 'OOMKilled',
    22: 'Unschedulable',
    23: 'Unschedulable',
    29: 'ImagePullBackOff',
    33: 'CrashLoopBackOff',
    38: 'CrashLoopBackOff',
  };
  const suffix = (i) => ((i * 2654435761) >>> 0).toString(36).slice(-5);
  const items = [];
  for (let i = 0; i < 40; i++) {
    const app = ['orders', 'billing', 'search', 'web'][i % 4];
    const name = `${app}-7d9f8b6c5-${suffix(i + 1)}`;
    const image = `registry.example.com/${app}:1.4.${i % 3}`;
    const started = `2026-12-01T0${i % 10}:${String((i * 7) % 60).padStart(2, '0')}:00Z`;
    const kind = trouble[i];
    const container = {
      name: app,
      image,
      imageID: `registry.example.com/${app}@sha256:${'0123456789abcdef'.repeat(4)}`,
      containerID: `containerd://${suffix(i + 7)}${'ab12'.repeat(14)}`,
      ready: !kind,
      restartCount: kind === 'CrashLoopBackOff' ? 12 + i : kind === 'OOMKilled' ? 4 : 0,
      started: !kind,
      state: { running: { startedAt: started } },
    };
    if (kind === 'CrashLoopBackOff') {
      container.state = {
        waiting: {
          reason: 'CrashLoopBackOff',
          message: `back-off 5m0s restarting failed container=${app} pod=${name}_default`,
        },
      };
      container.lastState = {
        terminated: {
          exitCode: 1,
          reason: 'Error',
          startedAt: started,
          finishedAt: started,
          containerID: container.containerID,
        },
      };
    } else if (kind === 'OOMKilled') {
      container.lastState = {
        terminated: {
          exitCode: 137,
          reason: 'OOMKilled',
          startedAt: started,
          finishedAt: started,
          containerID: container.containerID,
        },
      };
    } else if (kind === 'ImagePullBackOff') {
      container.state = { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${image}"` } };
      delete container.containerID;
    }
    const pending = kind === 'Unschedulable';
    items.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'default',
        uid: `${suffix(i + 3)}-1c2d-4e5f-8a9b-${suffix(i + 5)}0c0d0e0f`,
        creationTimestamp: started,
        labels: { app, 'pod-template-hash': '7d9f8b6c5' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${app}-7d9f8b6c5`, controller: true }],
      },
      spec: {
        containers: [
          {
            name: app,
            image,
            ports: [{ containerPort: 8080, protocol: 'TCP' }],
            resources: { limits: { memory: '512Mi' }, requests: { cpu: '250m', memory: '256Mi' } },
          },
        ],
        ...(pending ? {} : { nodeName: `node-${(i % 3) + 1}` }),
        restartPolicy: 'Always',
        serviceAccountName: 'default',
      },
      status: {
        phase: pending ? 'Pending' : 'Running',
        conditions: pending
          ? [
              {
                type: 'PodScheduled',
                status: 'False',
                reason: 'Unschedulable',
                message:
                  '0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
                lastTransitionTime: started,
              },
            ]
          : [
              { type: 'Initialized', status: 'True', lastTransitionTime: started },
              { type: 'Ready', status: kind ? 'False' : 'True', lastTransitionTime: started },
              { type: 'ContainersReady', status: kind ? 'False' : 'True', lastTransitionTime: started },
              { type: 'PodScheduled', status: 'True', lastTransitionTime: started },
            ],
        ...(pending
          ? {}
          : { hostIP: `10.0.0.${(i % 3) + 11}`, podIP: `10.244.${i % 3}.${i + 10}`, startTime: started }),
        ...(pending ? {} : { containerStatuses: [container] }),
        qosClass: 'Burstable',
      },
    });
  }
  const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } }, null, 4);
  const names = Object.keys(trouble).map((i) => items[Number(i)].metadata.name);
  write('anomalies/kubectl-get-pods-json.out', text, [
    'CrashLoopBackOff',
    'OOMKilled',
    'Unschedulable',
    'ImagePullBackOff',
    ...names,
  ]);
}
rmSync(scratch, { recursive: true, force: true });
