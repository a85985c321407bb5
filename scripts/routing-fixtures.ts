// `npx tsx scripts/routing-fixtures.ts`: regenerates test/fixtures/routing-outputs,
// the routing table of real outputs. It builds a small scratch project in a
// temp folder (a git history, a TypeScript app with type errors, node:test,
// vitest and pytest suites with a failure, a C file that does not compile, a
// Cargo crate with an error, an SQLite database, an npm tree with an invalid
// and a missing dependency) and runs real tools in it; each output, kept small
// by the command itself, is written with the kind it must route to with the
// command line as a hint and without it (the rule per row is the tool's kind
// of output: runners and compilers are logs, listings and trees are listings,
// column-aligned results are tables). Rows marked synthetic are written here:
// the real command would print this machine (processes, mounts, pods, kernel).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { mountDshTools } from '../test/support/dsh-tools.js';
import type { ContentKind } from '../src/types.js';
import { pinTimes } from './corpus/workspace.js';

const OUT_DIR = resolve(import.meta.dirname, '../test/fixtures/routing-outputs');
const MODULES = resolve(import.meta.dirname, '../node_modules');
const SHOWN_ROOT = '/tmp/work';
/** Longest fixture kept: the commands cut their own output (`| head`) to stay under it. */
const MAX_BYTES = 12_000;

export interface RoutingRow {
  readonly name: string;
  /** The host tool that returned the text: `bash` for shell commands, else a DSH tool. */
  readonly tool: string;
  /** The command line passed as the routing hint (bash), else null. */
  readonly command: string | null;
  /** Kind routed to with the tool name and command line. */
  readonly kind: ContentKind;
  /** Kind routed to from the text alone. */
  readonly sniffed: ContentKind;
  readonly synthetic: boolean;
}

interface Spec {
  readonly name: string;
  readonly command: string;
  readonly kind: ContentKind;
  readonly sniffed?: ContentKind;
  readonly cwd?: string;
  /** A DSH tool call instead of a shell command. */
  readonly dsh?: { readonly tool: string; readonly args: Record<string, unknown> };
  readonly synthetic?: string;
  readonly needs?: string;
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Ada Park',
  GIT_AUTHOR_EMAIL: 'ada.park@example.com',
  GIT_COMMITTER_NAME: 'Ada Park',
  GIT_COMMITTER_EMAIL: 'ada.park@example.com',
  GIT_AUTHOR_DATE: '2025-03-06T12:00:00Z',
  GIT_COMMITTER_DATE: '2025-03-06T12:00:00Z',
};

function sh(cwd: string, command: string, env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync('bash', ['-c', `${command} 2>&1`], {
    cwd,
    env: { ...process.env, ...GIT_ENV, NO_COLOR: '1', FORCE_COLOR: '0', TZ: 'UTC', LC_ALL: 'C.UTF-8', ...env },
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 16 << 20,
  });
  return result.stdout ?? '';
}

const CART = `// A cart's total in cents.
export interface Line {
  readonly sku: string;
  readonly cents: number;
  readonly qty: number;
}

export function total(lines: readonly Line[]): number {
  return lines.reduce((sum, line) => sum + line.cents * line.qty, 0);
}

export function discount(cents: number, percent: number): number {
  return Math.round(cents * (1 - percent / 100));
}
`;

/** A scratch project with a git history and broken builds; returns its root. */
function workspace(root: string): void {
  const app = join(root, 'app');
  write(
    join(app, 'package.json'),
    '{\n  "name": "shop",\n  "version": "1.0.0",\n  "type": "module",\n  "scripts": { "test": "node --test test/", "build": "tsc -p ." }\n}\n',
  );
  write(
    join(app, 'tsconfig.json'),
    '{ "compilerOptions": { "strict": true, "noEmit": true, "target": "ES2022", "module": "NodeNext", "types": [] }, "include": ["src"] }\n',
  );
  write(join(app, 'src/cart.ts'), CART);
  write(
    join(app, 'README.md'),
    '# shop\n\nA small shop backend: carts, prices and stock.\n\nRun `npm test` before pushing; the\nbuild is `npm run build`.\n',
  );
  write(
    join(app, 'public/index.html'),
    '<!doctype html>\n<html>\n<head><title>Shop</title></head>\n<body>\n<h1>Shop</h1>\n<ul id="cart"><li>Tea <b>2</b></li><li>Cups <b>6</b></li></ul>\n<p>Total: <span id="total">12.40</span></p>\n</body>\n</html>\n',
  );
  write(
    join(app, 'data/orders.json'),
    `${JSON.stringify(
      [
        { id: 1, sku: 'tea', qty: 2 },
        { id: 2, sku: 'cup', qty: 6 },
        { id: 3, sku: 'pot', qty: 1 },
      ],
      null,
      2,
    )}\n`,
  );
  sh(
    app,
    'git init -q -b main && git add -A && GIT_AUTHOR_DATE=2025-03-03T09:00:00Z GIT_COMMITTER_DATE=2025-03-03T09:00:00Z git commit -qm "Cart total in cents"',
  );
  write(
    join(app, 'src/stock.ts'),
    'export const stock = new Map<string, number>([["tea", 40], ["cup", 12]]);\n\nexport function reserve(sku: string, qty: number): boolean {\n  const left = stock.get(sku) ?? 0;\n  if (left < qty) return false;\n  stock.set(sku, left - qty);\n  return true;\n}\n',
  );
  write(
    join(app, 'test/cart.test.js'),
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n\nconst total = (lines) => lines.reduce((s, l) => s + l.cents * l.qty, 0);\n\ntest('sums cents times quantity', () => {\n  assert.equal(total([{ cents: 250, qty: 2 }, { cents: 100, qty: 1 }]), 600);\n});\n\ntest('is zero for an empty cart', () => {\n  assert.equal(total([]), 0);\n});\n\ntest('applies the bulk discount', () => {\n  assert.equal(total([{ cents: 1000, qty: 10 }]), 9000);\n});\n",
  );
  sh(
    app,
    'git add -A && GIT_AUTHOR_DATE=2025-03-04T10:30:00Z GIT_COMMITTER_DATE=2025-03-04T10:30:00Z git commit -qm "Stock reservations and cart tests"',
  );
  // A commit whose diff holds a fixture that looks like compiler output: no verdict may be read from it.
  write(
    join(app, 'test/fixtures/tsc.log'),
    "src/cart.ts(9,3): error TS2322: Type 'string' is not assignable to type 'number'.\nsrc/cart.ts(14,10): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.\nsrc/stock.ts(3,17): error TS7006: Parameter 'sku' implicitly has an 'any' type.\n\nFound 3 errors in 2 files.\n",
  );
  sh(
    app,
    'git add -A && GIT_AUTHOR_DATE=2025-03-05T08:15:00Z GIT_COMMITTER_DATE=2025-03-05T08:15:00Z git commit -qm "Fixture: a failing tsc run"',
  );
  sh(app, 'git checkout -qb feature/discount');
  write(join(app, 'src/cart.ts'), CART.replace('percent / 100', 'Math.min(percent, 90) / 100'));
  sh(app, 'git commit -qam "Cap discounts at 90%" && git checkout -q main');
  // Uncommitted edits, one staged.
  write(
    join(app, 'src/cart.ts'),
    CART.replace('line.cents * line.qty', 'line.cents * Math.max(0, line.qty)').concat(
      '\nexport const EMPTY: readonly Line[] = [];\n',
    ),
  );
  write(
    join(app, 'src/stock.ts'),
    'export const stock = new Map<string, number>([["tea", 40], ["cup", 12], ["pot", 3]]);\n\nexport function reserve(sku: string, qty: number): boolean {\n  const left = stock.get(sku) ?? 0;\n  if (qty <= 0 || left < qty) return false;\n  stock.set(sku, left - qty);\n  return true;\n}\n',
  );
  sh(app, 'git add src/stock.ts');
  // A type error for tsc.
  write(
    join(app, 'src/price.ts'),
    "import { discount } from './cart.js';\n\nexport function label(cents: number): string {\n  return discount(cents, '10') + ' EUR';\n}\n\nexport const shipping: number = 'free';\n",
  );
  symlinkSync(MODULES, join(app, 'node_modules'));

  // vitest, with one failing test (vitest from this project's install).
  const vt = join(root, 'vt');
  write(join(vt, 'package.json'), '{ "name": "vt", "private": true, "type": "module" }\n');
  write(
    join(vt, 'cart.test.js'),
    "import { describe, expect, it } from 'vitest';\n\nconst total = (items) => items.reduce((sum, [price, qty]) => sum + price * qty, 0);\n\ndescribe('cart total', () => {\n  it('sums price times quantity', () => {\n    expect(total([[250, 2], [100, 1]])).toBe(600);\n  });\n  it('is zero for an empty cart', () => {\n    expect(total([])).toBe(0);\n  });\n  it('applies the bulk discount', () => {\n    expect(total([[1000, 10]])).toBe(9000);\n  });\n});\n",
  );
  write(
    join(vt, 'ok/sum.test.js'),
    "import { expect, it } from 'vitest';\n\nit('adds', () => expect(1 + 1).toBe(2));\nit('subtracts', () => expect(3 - 1).toBe(2));\n",
  );
  symlinkSync(MODULES, join(vt, 'node_modules'));

  // pytest and unittest with a failure.
  const py = join(root, 'py');
  write(
    join(py, 'test_stock.py'),
    'import pytest\n\n\ndef reserve(stock, qty):\n    if qty > stock:\n        raise ValueError("not enough stock")\n    return stock - qty\n\n\ndef test_reserve():\n    assert reserve(10, 3) == 7\n\n\ndef test_reserve_all():\n    assert reserve(5, 5) == 0\n\n\ndef test_reserve_too_many():\n    assert reserve(2, 3) == -1\n\n\n@pytest.mark.skip(reason="no warehouse yet")\ndef test_warehouse():\n    pass\n',
  );
  write(
    join(py, 'test_unit.py'),
    'import unittest\n\n\nclass Price(unittest.TestCase):\n    def test_round(self):\n        self.assertEqual(round(2.675, 2), 2.68)\n\n    def test_sum(self):\n        self.assertEqual(sum([1, 2, 3]), 6)\n\n\nif __name__ == "__main__":\n    unittest.main()\n',
  );
  write(
    join(py, 'crash.py'),
    'import json\n\n\ndef load(path):\n    with open(path) as f:\n        return json.load(f)\n\n\ndef main():\n    config = load("settings.json")\n    print(config["port"])\n\n\nmain()\n',
  );
  write(
    join(py, 'logs.py'),
    'import logging\n\nlogging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s", level=logging.DEBUG)\nlog = logging.getLogger("worker")\nfor i in range(12):\n    log.info("job %d done in %d ms", i, 40 + i)\nlog.warning("queue depth 140 over 100")\nlog.error("job 12 failed: connection reset")\nlog.debug("retrying job 12")\n',
  );

  // C with an error and a warning, built by make.
  const native = join(root, 'native');
  write(
    join(native, 'Makefile'),
    'CFLAGS = -Wall -Wextra -O2\n\nall: ring.o main.o\n\n%.o: %.c\n\t$(CC) $(CFLAGS) -c $< -o $@\n',
  );
  write(
    join(native, 'ring.c'),
    '#include <stddef.h>\n\nstruct ring { int *items; size_t head, size; };\n\nint ring_peek(struct ring *r) {\n  int unused;\n  if (r->size == 0) return -1;\n  return r->items[r->head];\n}\n',
  );
  write(
    join(native, 'main.c'),
    '#include <stdio.h>\n\nint main(void) {\n  int n = "three";\n  printf("%d\\n", n)\n  return 0;\n}\n',
  );

  // A Cargo crate with a type error.
  const crate = join(root, 'ledger');
  write(
    join(crate, 'Cargo.toml'),
    '[package]\nname = "ledger"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
  );
  write(
    join(crate, 'src/lib.rs'),
    'pub fn balance(entries: &[i64]) -> i64 {\n    entries.iter().sum()\n}\n\npub fn label(cents: i64) -> String {\n    cents / 100\n}\n',
  );

  // An SQLite database with a NULL and an outlier.
  const db = join(root, 'db');
  mkdirSync(db, { recursive: true });
  sh(
    db,
    `sqlite3 shop.db "create table orders(id integer primary key, customer text, amount real, status text); insert into orders values (1,'ada',24.5,'paid'),(2,'bruno',310.0,'paid'),(3,'chen',NULL,'pending'),(4,'dana',18.25,'paid'),(5,'eve',998877.66,'refunded'),(6,'finn',42.0,'paid'),(7,'gus',77.7,'paid');"`,
  );

  // An npm tree with an invalid and a missing dependency (node_modules written by hand, no network).
  const tree = join(root, 'npmtree');
  write(
    join(tree, 'package.json'),
    '{\n  "name": "npmtree",\n  "version": "1.0.0",\n  "dependencies": { "left-pad": "^1.3.0", "chalk": "^5.0.0", "ms": "^2.1.3" }\n}\n',
  );
  write(join(tree, 'node_modules/left-pad/package.json'), '{ "name": "left-pad", "version": "1.3.0" }\n');
  write(
    join(tree, 'node_modules/chalk/package.json'),
    '{ "name": "chalk", "version": "4.1.2", "dependencies": { "ansi-styles": "^4.1.0", "supports-color": "^7.1.0" } }\n',
  );
  write(
    join(tree, 'node_modules/ansi-styles/package.json'),
    '{ "name": "ansi-styles", "version": "4.3.0", "dependencies": { "color-convert": "^2.0.1" } }\n',
  );
  write(
    join(tree, 'node_modules/color-convert/package.json'),
    '{ "name": "color-convert", "version": "2.0.1", "dependencies": { "color-name": "~1.1.4" } }\n',
  );
  write(join(tree, 'node_modules/color-name/package.json'), '{ "name": "color-name", "version": "1.1.4" }\n');
  const healthy = join(root, 'npmok');
  write(
    join(healthy, 'package.json'),
    '{\n  "name": "npmok",\n  "version": "1.0.0",\n  "dependencies": { "ansi-styles": "^4.1.0", "left-pad": "^1.3.0" }\n}\n',
  );
  for (const name of ['ansi-styles', 'color-convert', 'color-name', 'left-pad'])
    write(join(healthy, `node_modules/${name}/package.json`), sh(tree, `cat node_modules/${name}/package.json`));
  write(
    join(root, 'data/sales.txt'),
    'region product units revenue\nnorth tea 120 1440.00\nsouth tea 95 1140.00\neast cups 310 930.00\nwest pots 12 480.00\nnorth cups 88 264.00\nsouth pots 7 280.00\n',
  );
  write(
    join(root, 'data/hosts.csv'),
    'host,role,zone,cpus\nweb-1,frontend,eu-west-1a,4\nweb-2,frontend,eu-west-1b,4\ndb-1,primary,eu-west-1a,16\ndb-2,replica,eu-west-1b,16\ncache-1,redis,eu-west-1a,2\n',
  );
}

// ------------------------------------------------------------ synthetic rows

const PODS = `NAMESPACE     NAME                                READY   STATUS             RESTARTS        AGE   IP            NODE       NOMINATED NODE   READINESS GATES
default       shop-api-7d9f8b6c5-2xkqp            1/1     Running            0               3d    10.42.0.17    worker-1   <none>           <none>
default       shop-api-7d9f8b6c5-9wzlm            0/1     CrashLoopBackOff   41 (2m ago)     3d    10.42.1.9     worker-2   <none>           <none>
default       shop-worker-5c6d7f9b8-hk2vn         1/1     Running            2 (18h ago)     3d    10.42.0.23    worker-1   <none>           <none>
default       shop-worker-5c6d7f9b8-qq7rt         0/1     OOMKilled          7 (5m ago)      3d    10.42.2.4     worker-3   <none>           <none>
default       redis-0                             1/1     Running            0               12d   10.42.1.3     worker-2   <none>           <none>
kube-system   coredns-5d78c9869d-8xk2m            1/1     Running            0               40d   10.42.0.2     worker-1   <none>           <none>
kube-system   metrics-server-6f9b8c7d5-tz9wq      0/1     ImagePullBackOff   0               1h    <none>        worker-3   <none>           <none>
monitoring    prometheus-0                        2/2     Running            0               40d   10.42.2.8     worker-3   <none>           <none>
monitoring    node-exporter-4kx8p                 1/1     Running            0               40d   10.0.0.11     worker-1   <none>           <none>
batch         nightly-report-29114400-x7k2p       0/1     Pending            0               9m    <none>        <none>     <none>           <none>
`;

const SYNTHETIC: Record<string, string> = {
  pods: PODS,
  podsNarrow: PODS.split('\n')
    .map((line) => line.slice(0, 104).trimEnd())
    .join('\n'),
  services: `NAME           TYPE           CLUSTER-IP      EXTERNAL-IP   PORT(S)                      AGE
kubernetes     ClusterIP      10.43.0.1       <none>        443/TCP                      40d
shop-api       LoadBalancer   10.43.118.20    <pending>     80:31380/TCP,443:31390/TCP   3d
redis          ClusterIP      None            <none>        6379/TCP                     12d
prometheus     NodePort       10.43.77.141    <none>        9090:30090/TCP               40d
`,
  events: `LAST SEEN   TYPE      REASON             OBJECT                              MESSAGE
2m          Warning   BackOff            pod/shop-api-7d9f8b6c5-9wzlm        Back-off restarting failed container api in pod shop-api-7d9f8b6c5-9wzlm_default(<uid>)
5m          Warning   OOMKilling         node/worker-3                       Memory cardinality violation: killed process 48121 (worker) <pid>
9m          Warning   FailedScheduling   pod/nightly-report-29114400-x7k2p   0/3 nodes are available: 3 Insufficient memory. preemption: <none>
1h          Warning   Failed             pod/metrics-server-6f9b8c7d5-tz9wq  Failed to pull image "registry.local/metrics-server:v0.7.9": <unknown>
1h          Normal    Pulling            pod/metrics-server-6f9b8c7d5-tz9wq  Pulling image "registry.local/metrics-server:v0.7.9"
`,
  dockerPs: `CONTAINER ID   IMAGE                 COMMAND                  CREATED        STATUS                      PORTS                    NAMES
3f2a9c81b7d4   shop/api:1.4.0        "node dist/server.js"    3 hours ago    Up 3 hours                  0.0.0.0:8080->8080/tcp   shop-api
9b1c44e0a2f7   postgres:16           "docker-entrypoint.s…"   2 days ago     Up 2 days (healthy)         5432/tcp                 shop-db
c7e5d2a18f30   redis:7-alpine        "docker-entrypoint.s…"   2 days ago     Up 2 days                   6379/tcp                 shop-cache
0d8e6f3b9a12   shop/worker:1.4.0     "python3 -m celery -…"   3 hours ago    Exited (137) 5 minutes ago                           shop-worker
`,
  psAux: `USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND
root           1  0.0  0.1 167744 11520 ?        Ss   Mar01   0:09 /sbin/init
root         412  0.0  0.2  48232 17400 ?        Ss   Mar01   0:02 /usr/lib/systemd/systemd-journald
www-data    2210  0.4  1.8 912344 148220 ?       Sl   09:12   1:40 node /srv/shop/dist/server.js --port 8080
postgres    2301  0.0  0.9 221876 76412 ?        Ss   09:12   0:03 postgres: 16/main: checkpointer
deploy      4180 198.4 41.7 4123344 3411200 ?    Rl   12:40  22:13 python3 -m celery -A inventory worker
deploy      4191  0.0  0.0      0     0 ?        Z    12:41   0:00 [celery] <defunct>
root        5120  0.0  0.0   7060  3200 pts/0    R+   13:02   0:00 ps aux
`,
  dfH: `Filesystem      Size  Used Avail Use% Mounted on
/dev/nvme0n1p2  468G  441G  3.2G 100% /
tmpfs           7.8G  1.2M  7.8G   1% /run
/dev/nvme0n1p1  511M   61M  451M  12% /boot/efi
/dev/sdb1       1.8T  612G  1.1T  36% /srv/backups
overlay         468G  441G  3.2G 100% /var/lib/docker/overlay2/4f1c2e/merged
`,
  dmesg: `[    0.000000] Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1
[    0.412003] PCI: Using configuration type 1 for base access
[    1.220417] EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Quota mode: none.
[ 8123.551200] worker invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0
[ 8123.551290] CPU: 3 PID: 48121 Comm: worker Not tainted 6.1.0-18-amd64 #1 Debian 6.1.76-1
[ 8123.551377] Out of memory: Killed process 48121 (worker) total-vm:4123344kB, anon-rss:3411200kB, file-rss:0kB, shmem-rss:0kB, UID:1001 pgtables:7000kB oom_score_adj:0
[ 8140.002113] segfault at 0 ip 000055d0c1a2b3c4 sp 00007ffd5e6f7a80 error 4 in api[55d0c1a00000+2b000]
`,
  journal: `Mar 05 08:14:02 web-1 systemd[1]: Started shop-worker.service - Shop background worker.
Mar 05 08:14:03 web-1 shop-worker[48121]: INFO celery@web-1 ready.
Mar 05 09:01:44 web-1 shop-worker[48121]: INFO Task inventory.sync[0c1f] succeeded in 1.2s
Mar 05 10:22:51 web-1 kernel: Out of memory: Killed process 48121 (python3) total-vm:4123344kB, anon-rss:3411200kB
Mar 05 10:22:51 web-1 systemd[1]: shop-worker.service: Main process exited, code=killed, status=9/KILL
Mar 05 10:22:51 web-1 systemd[1]: shop-worker.service: Failed with result 'oom-kill'.
Mar 05 10:22:56 web-1 systemd[1]: shop-worker.service: Scheduled restart job, restart counter is at 1.
`,
  psql: ` id | customer |  amount   |  status
----+----------+-----------+----------
  1 | ada      |      24.5 | paid
  2 | bruno    |       310 | paid
  3 | chen     |           | pending
  4 | dana     |     18.25 | paid
  5 | eve      | 998877.66 | refunded
(5 rows)

`,
  eslint: `
/tmp/work/app/src/cart.ts
   3:10  error    'unused' is defined but never used             @typescript-eslint/no-unused-vars
  12:5   warning  Unexpected console statement                   no-console
  14:18  error    Expected '===' and instead saw '=='            eqeqeq

/tmp/work/app/src/stock.ts
  7:1  error  Missing return type on function  @typescript-eslint/explicit-function-return-type

✖ 4 problems (3 errors, 1 warning)
  1 error and 0 warnings potentially fixable with the \`--fix\` option.

`,
  mypy: `py/inventory/stock.py:12: error: Argument 1 to "reserve" has incompatible type "str"; expected "int"  [arg-type]
py/inventory/stock.py:30: error: Item "None" of "Optional[Order]" has no attribute "lines"  [union-attr]
py/inventory/report.py:8: note: By default the bodies of untyped functions are not checked, consider using --check-untyped-defs  [annotation-unchecked]
Found 2 errors in 1 file (checked 14 source files)
`,
};

function specs(): Spec[] {
  const s: Spec[] = [];
  const add = (name: string, command: string, kind: ContentKind, more: Partial<Spec> = {}) =>
    s.push({ name, command, kind, cwd: 'app', ...more });
  // git
  add('git-log', 'git log', 'gitlog');
  add('git-log-oneline', 'git log --oneline --all', 'gitlog');
  add('git-log-stat', 'git log --stat', 'gitlog');
  add('git-log-name-status', 'git log --name-status', 'gitlog');
  add('git-log-graph', 'git log --graph --oneline --all', 'gitlog');
  add('git-log-format', "git log --format='%h %an %ad %s' --date=short", 'gitlog', { sniffed: 'log' });
  add('git-log-patch', 'git log -p -n 3', 'gitlog', { sniffed: 'diff' });
  add('git-log-patch-fixture', 'git log -p -n 1 -- test/fixtures', 'gitlog', { sniffed: 'diff' });
  add('git-reflog', 'git reflog', 'gitlog');
  add('git-diff', 'git diff', 'diff');
  add('git-diff-cached', 'git diff --cached', 'diff');
  add('git-diff-head', 'git diff HEAD', 'diff');
  add('git-diff-branch', 'git diff main feature/discount', 'diff');
  add('git-diff-stat', 'git diff --stat HEAD~2', 'gitlog');
  add('git-diff-name-only', 'git diff --name-only HEAD~2', 'listing');
  add('git-show', 'git show HEAD', 'diff');
  add('git-show-fixture', 'git show HEAD~1', 'diff');
  add('git-show-stat', 'git show --stat HEAD~1', 'gitlog');
  add('git-blame', 'git blame src/cart.ts', 'code');
  add('git-status', 'git status', 'text');
  add('git-status-short', 'git status -s', 'text');
  add('git-branch', 'git branch -a -v', 'text');
  add('git-grep', 'git grep -n total', 'grep');
  add('git-ls-files', 'git ls-files', 'listing');
  add('git-shortlog', 'git shortlog -sn HEAD', 'text');
  add('diff-u', 'diff -u src/cart.ts ../vt/cart.test.js', 'diff');
  // listings
  add('ls', 'ls', 'listing', { sniffed: 'text' });
  add('ls-1', 'ls -1 src test', 'listing');
  add('ls-l', 'ls -l', 'listing');
  add('ls-la', 'ls -la', 'listing');
  add('ls-lh', 'ls -lh src', 'listing');
  add('ls-lar', 'ls -laR src test', 'listing');
  add('ls-r', 'ls -R src test public', 'listing');
  add('ls-l-modules', 'ls -l ../npmtree/node_modules', 'listing');
  add('find', 'find . -path ./node_modules -prune -o -path ./.git -prune -o -print | sort', 'listing');
  add('find-type-f', 'find . -path ./.git -prune -o -type f -print | sort', 'listing');
  add('find-name', "find .. -name '*.ts' -not -path '*/node_modules/*' | sort", 'listing');
  add('du-ah', 'du -ah src test public | sort -k2', 'listing');
  add('du-sh', 'du -sh ../* | sort -k2', 'listing');
  add('du-max-depth', 'du -h --max-depth=1 .. | sort -k2', 'listing');
  add('npm-ls-all', 'npm ls --all', 'listing', { cwd: 'npmtree', sniffed: 'text' });
  add('npm-ls', 'npm ls', 'listing', { cwd: 'npmtree', sniffed: 'log' });
  add('npm-ls-healthy', 'npm ls --all', 'listing', { cwd: 'npmok' });
  add('npm-ls-parseable', 'npm ls --all --parseable', 'listing', { cwd: 'npmok' });
  add('pip-freeze', 'pip freeze | head -40', 'listing', { needs: 'pip' });
  add('pip-list', 'pip list | head -40', 'table', { needs: 'pip' });
  // builds, compilers, test runners
  add('tsc', 'npx tsc --noEmit -p .', 'log');
  add('tsc-pretty', 'npx tsc --noEmit -p . --pretty', 'log');
  add('npm-run-build', 'npm run build', 'log');
  add('node-test-tap', 'node --test --test-reporter=tap test/', 'log');
  add('node-test-spec', 'node --test --test-reporter=spec test/', 'log');
  add('node-test-dot', 'node --test --test-reporter=dot test/', 'log');
  add('npm-test', 'npm test', 'log');
  add('vitest', 'npx vitest run --reporter=default', 'log', { cwd: 'vt' });
  add('vitest-verbose', 'npx vitest run --reporter=verbose', 'log', { cwd: 'vt' });
  add('vitest-passing', 'npx vitest run ok', 'log', { cwd: 'vt' });
  add('pytest', 'python3 -m pytest -p no:cacheprovider', 'log', { cwd: 'py', needs: 'python3' });
  add('pytest-v', 'python3 -m pytest -v -p no:cacheprovider', 'log', { cwd: 'py', needs: 'python3' });
  add('pytest-q', 'python3 -m pytest -q -p no:cacheprovider test_stock.py', 'log', { cwd: 'py', needs: 'python3' });
  add('unittest', 'python3 -m unittest -v test_unit', 'log', { cwd: 'py', needs: 'python3' });
  add('python-traceback', 'python3 crash.py', 'log', { cwd: 'py', needs: 'python3' });
  add('python-logging', 'python3 logs.py', 'log', { cwd: 'py', needs: 'python3' });
  add('make-gcc', 'make -k', 'log', { cwd: 'native', needs: 'gcc' });
  add('make-n', 'make -n', 'log', { cwd: 'native', needs: 'make' });
  add('gcc-warnings', 'gcc -Wall -Wextra -c ring.c -o /dev/null', 'log', { cwd: 'native', needs: 'gcc' });
  add('cargo-build', 'cargo build --offline', 'log', { cwd: 'ledger', needs: 'cargo' });
  add('node-throw', `node -e "JSON.parse(require('fs').readFileSync('data/orders.json','utf8').slice(3))"`, 'log');
  add('npm-pack-dry', 'npm pack --dry-run', 'log');
  add('npm-run-missing', 'npm run deploy', 'log');
  // traces and system logs
  add('strace-f', "env -i PATH=/usr/bin strace -f sh -c 'cat missing.conf' 2>&1 | tail -60", 'log', {
    cwd: 'db',
    needs: 'strace',
  });
  add('strace-openat', 'strace -e trace=openat,read cat missing.conf', 'log', { cwd: 'db', needs: 'strace' });
  add(
    'strace-file',
    "env -i PATH=/usr/bin strace -f -e trace=file,process sh -c 'test -r app.conf || cat app.conf' 2>&1",
    'log',
    { cwd: 'db', needs: 'strace' },
  );
  add('kubectl-no-cluster', 'kubectl get pods', 'log', { needs: 'kubectl' });
  // query results and tables
  const sql = (mode: string) => `sqlite3 ${mode} shop.db 'select * from orders'`;
  add('sqlite3-column', sql('-header -column'), 'table', { cwd: 'db', needs: 'sqlite3' });
  add('sqlite3-box', sql('-box'), 'table', { cwd: 'db', needs: 'sqlite3' });
  add('sqlite3-table', sql('-table'), 'table', { cwd: 'db', needs: 'sqlite3' });
  add('sqlite3-markdown', sql('-markdown'), 'table', { cwd: 'db', needs: 'sqlite3' });
  add('sqlite3-csv', sql('-csv -header'), 'table', { cwd: 'db', needs: 'sqlite3' });
  add('sqlite3-list', sql('-header'), 'table', { cwd: 'db', needs: 'sqlite3' });
  add('sqlite3-json', sql('-json'), 'json', { cwd: 'db', needs: 'sqlite3' });
  add('sqlite3-line', sql('-line'), 'text', { cwd: 'db', needs: 'sqlite3' });
  add('column-t', 'column -t ../data/sales.txt', 'table');
  add('column-t-csv', 'column -t -s, ../data/hosts.csv', 'table');
  add('ps-o', 'sleep 3 & sleep 3 & ps -o pid,ppid,stat,comm --ppid $$', 'table');
  // files and documents
  add('cat-json', 'cat data/orders.json', 'json');
  add('jq', 'jq -c ".[]" data/orders.json', 'json');
  add('cat-ts', 'cat src/cart.ts', 'code');
  add('cat-readme', 'cat README.md', 'text');
  add('cat-html', 'cat public/index.html', 'html');
  add('cat-csv', 'cat ../data/hosts.csv', 'table');
  add('grep-rn', 'grep -rn total src test', 'grep');
  add('grep-r', 'grep -r reserve src', 'grep');
  add('rg-n', 'rg -n --sort path qty .', 'grep', { needs: 'rg' });
  add('git-help', 'git help -a | head -60', 'text');
  add('ls-help', 'ls --help | head -40', 'text');
  add('curl-refused', 'curl -sS http://127.0.0.1:9/', 'text', { needs: 'curl' });
  add('docker-no-daemon', 'docker ps', 'text', { needs: 'docker' });
  add('psql-no-server', 'psql -h 127.0.0.1 -p 9 -U shop shop', 'log', { needs: 'psql' });
  add('xxd', 'xxd src/cart.ts | head -20', 'text');
  add('pip-show', 'pip show pytest', 'text', { needs: 'pip' });
  // the harness's own tools (their framing)
  s.push({ name: 'dsh-grep', command: '', kind: 'grep', dsh: { tool: 'grep', args: { pattern: 'qty', path: '.' } } });
  s.push({
    name: 'dsh-glob',
    command: '',
    kind: 'listing',
    sniffed: 'listing',
    dsh: { tool: 'glob', args: { pattern: '**/*.ts' } },
  });
  s.push({ name: 'dsh-read', command: '', kind: 'code', dsh: { tool: 'read', args: { file_path: 'src/cart.ts' } } });
  s.push({
    name: 'dsh-bash-tsc',
    command: 'npx tsc --noEmit -p .',
    kind: 'log',
    dsh: { tool: 'bash', args: { command: 'npx tsc --noEmit -p .', description: 'Type-check' } },
  });
  // synthetic: the real command would print this machine
  const synth = (name: string, command: string, kind: ContentKind, text: string) =>
    s.push({ name, command, kind, synthetic: text });
  synth('kubectl-get-pods', 'kubectl get pods -A -o wide', 'table', SYNTHETIC.pods!);
  synth('kubectl-get-pods-narrow', 'kubectl get pods -A', 'table', SYNTHETIC.podsNarrow!);
  synth('kubectl-get-svc', 'kubectl get svc', 'table', SYNTHETIC.services!);
  synth('kubectl-get-events', 'kubectl get events', 'table', SYNTHETIC.events!);
  synth('docker-ps', 'docker ps -a', 'table', SYNTHETIC.dockerPs!);
  synth('ps-aux', 'ps aux', 'table', SYNTHETIC.psAux!);
  synth('df-h', 'df -h', 'table', SYNTHETIC.dfH!);
  synth('dmesg', 'dmesg', 'log', SYNTHETIC.dmesg!);
  synth('journalctl', 'journalctl -u shop-worker', 'log', SYNTHETIC.journal!);
  synth('psql-select', "psql -c 'select * from orders'", 'table', SYNTHETIC.psql!);
  synth('eslint', 'npx eslint src', 'log', SYNTHETIC.eslint!);
  synth('mypy', 'mypy py', 'log', SYNTHETIC.mypy!);
  return s;
}

/** The scratch folder shows as /tmp/work; timings and ids that change per run are fixed. */
function normalise(text: string, root: string, name: string): string {
  const pids = new Map<string, string>();
  const pid = (n: string) => {
    // Same width, so columns stay aligned.
    if (!pids.has(n)) pids.set(n, String(10 ** (n.length - 1) + pids.size));
    return pids.get(n)!;
  };
  const numbered = /^(?:strace|ps)-/.test(name)
    ? text.replace(/^(\[pid +|\s*)(\d{2,7})(?=[\] ])/gm, (_, lead: string, n: string) => `${lead}${pid(n)}`)
    : text;
  return numbered
    .split(root)
    .join(SHOWN_ROOT)
    .split(MODULES)
    .join('/opt/shop/node_modules')
    .split(`${homedir()}/`)
    .join('~/')
    .replace(/\b(\d+(?:\.\d+)?)(ms|s)\b/g, (_, n: string, unit: string) => `${n.includes('.') ? '1.00' : '1'}${unit}`)
    .replace(/\bduration_ms:? \d+(\.\d+)?/g, 'duration_ms 1.000')
    .replace(/^(\s*Start at\s+)\d\d:\d\d:\d\d/gm, '$109:30:00')
    .replace(/\n*$/, '\n');
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'squeeze-routing-'));
  const rows: RoutingRow[] = [];
  const skipped: string[] = [];
  try {
    workspace(root);
    pinTimes(root);
    const tools = await mountDshTools({ cwd: join(root, 'app'), dshHome: join(root, '.dsh') });
    rmSync(OUT_DIR, { recursive: true, force: true });
    mkdirSync(OUT_DIR, { recursive: true });
    for (const spec of specs()) {
      if (spec.needs && spawnSync('bash', ['-c', `command -v ${spec.needs}`]).status !== 0) {
        skipped.push(`${spec.name} (${spec.needs} not installed)`);
        continue;
      }
      const raw =
        spec.synthetic ??
        (spec.dsh ? await tools.text(spec.dsh.tool, spec.dsh.args) : sh(join(root, spec.cwd ?? 'app'), spec.command));
      const text = spec.synthetic ?? normalise(raw, root, spec.name);
      if (text.trim() === '' || Buffer.byteLength(text) > MAX_BYTES) {
        skipped.push(`${spec.name} (${text.trim() === '' ? 'empty' : `${Buffer.byteLength(text)} bytes`})`);
        continue;
      }
      writeFileSync(join(OUT_DIR, `${spec.name}.txt`), text);
      rows.push({
        name: spec.name,
        tool: spec.dsh?.tool ?? 'bash',
        command: spec.command === '' ? null : spec.command,
        kind: spec.kind,
        sniffed: spec.sniffed ?? spec.kind,
        synthetic: spec.synthetic !== undefined,
      });
    }
    await tools.dispose();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  writeFileSync(
    join(OUT_DIR, 'index.json'),
    `${JSON.stringify(
      {
        about:
          'Real outputs of tools run by scripts/routing-fixtures.ts in a scratch project (synthetic: true where the real command would print this machine), each with the kind it routes to given its tool and command line (kind) and from its text alone (sniffed).',
        skipped,
        rows,
      },
      null,
      2,
    )}\n`,
  );
  const real = rows.filter((row) => !row.synthetic).length;
  process.stderr.write(`${rows.length} fixtures (${real} real), ${skipped.length} skipped: ${skipped.join(', ')}\n`);
}

await main();
