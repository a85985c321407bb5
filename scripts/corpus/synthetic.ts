// Tables of realistic shape with synthetic rows, where the real command would
// print this machine's processes, mounts or containers: ps aux, kubectl get
// pods, docker ps, df -h, and CSV/TSV data files. Seeded, so stable.
import { pick, rng } from './random.js';

function columns(rows: string[][], right: ReadonlySet<number> = new Set(), gap = 3): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${rows
    .map((r) =>
      r
        .map((cell, i) =>
          i === r.length - 1 ? cell : right.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!),
        )
        .join(' '.repeat(gap))
        .trimEnd(),
    )
    .join('\n')}\n`;
}

const COMMANDS = [
  '/usr/lib/systemd/systemd --system --deserialize=42',
  '/usr/sbin/sshd -D',
  'node /srv/shop/dist/server.js --port 8080',
  'postgres: 16/main: checkpointer',
  'postgres: 16/main: walwriter',
  'postgres: shop shop 10.0.3.7(51122) idle',
  'redis-server 127.0.0.1:6379',
  'nginx: worker process',
  'nginx: master process /usr/sbin/nginx -g daemon on;',
  '/usr/bin/containerd',
  '/usr/bin/dockerd -H fd:// --containerd=/run/containerd/containerd.sock',
  'python3 -m celery -A inventory worker -l info',
  '[kworker/u8:2-events_unbound]',
  '[ksoftirqd/0]',
  '[rcu_sched]',
  '/usr/lib/postgresql/16/bin/postgres -D /var/lib/postgresql/16/main',
  'bash',
  'tmux new -s deploy',
  'vim src/cart.ts',
  'cron -f',
  '/usr/sbin/rsyslogd -n -iNONE',
  'node /srv/shop/node_modules/.bin/vite build --watch',
];
const USERS = ['root', 'www-data', 'postgres', 'redis', 'deploy', 'syslog'];

export function psAux(): string {
  const r = rng(11);
  const rows = [['USER', 'PID', '%CPU', '%MEM', 'VSZ', 'RSS', 'TTY', 'STAT', 'START', 'TIME', 'COMMAND']];
  let pid = 1;
  for (let i = 0; i < 180; i++) {
    pid += 1 + Math.floor(r() * 40);
    const command = i === 0 ? '/sbin/init splash' : pick(r, COMMANDS);
    const kernel = command.startsWith('[');
    const hot = i === 97; // one runaway process
    const zombie = i === 131;
    rows.push([
      kernel ? 'root' : pick(r, USERS),
      String(pid),
      hot ? '198.4' : (r() * (r() < 0.9 ? 0.6 : 6)).toFixed(1),
      hot ? '41.7' : (r() * 1.5).toFixed(1),
      kernel ? '0' : String(Math.floor(8000 + r() * 900000)),
      kernel ? '0' : String(Math.floor(900 + r() * 120000)),
      r() < 0.9 ? '?' : `pts/${Math.floor(r() * 4)}`,
      zombie ? 'Z' : pick(r, ['Ss', 'S', 'Sl', 'S<', 'I<', 'R+', 'Ssl', 'I']),
      pick(r, ['Mar03', 'Mar04', '09:12', '10:41', '11:02']),
      hot ? '912:44' : `${Math.floor(r() * 3)}:${String(Math.floor(r() * 60)).padStart(2, '0')}`,
      zombie ? '[python3] <defunct>' : command,
    ]);
  }
  return columns(rows, new Set([1, 2, 3, 4, 5]), 1);
}

export function kubectlPods(): string {
  const r = rng(12);
  const rows = [['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']];
  const apps = [
    ['shop', 'checkout-api', 3],
    ['shop', 'cart-worker', 4],
    ['shop', 'receipts', 2],
    ['inventory', 'stock-sync', 3],
    ['inventory', 'celery-worker', 6],
    ['kube-system', 'coredns', 2],
    ['kube-system', 'kube-proxy', 5],
    ['monitoring', 'prometheus-node-exporter', 5],
    ['monitoring', 'grafana', 1],
    ['ingress-nginx', 'ingress-nginx-controller', 2],
    ['shop', 'ledger-batch', 8],
  ] as const;
  const hash = () =>
    Math.floor(r() * 36 ** 5)
      .toString(36)
      .padStart(5, '0');
  for (const [ns, app, count] of apps) {
    const rs = `${Math.floor(r() * 36 ** 9)
      .toString(36)
      .padStart(9, '0')
      .slice(0, 9)}`;
    for (let i = 0; i < count; i++) {
      let status = 'Running',
        ready = app === 'ledger-batch' ? '0/1' : '1/1',
        restarts = '0';
      if (app === 'ledger-batch') status = i < 6 ? 'Completed' : 'Error';
      if (app === 'cart-worker' && i === 2) {
        status = 'CrashLoopBackOff';
        ready = '0/1';
        restarts = '27 (3m12s ago)';
      }
      if (app === 'celery-worker' && i === 4) {
        status = 'OOMKilled';
        ready = '0/1';
        restarts = '5 (41s ago)';
      }
      if (app === 'receipts' && i === 1) {
        status = 'Pending';
        ready = '0/1';
      }
      if (app === 'stock-sync' && i === 0) {
        status = 'ImagePullBackOff';
        ready = '0/1';
      }
      rows.push([
        ns,
        `${app}-${rs.slice(0, app === 'kube-proxy' || app.includes('exporter') ? 0 : 9)}${app === 'kube-proxy' || app.includes('exporter') ? '' : '-'}${hash()}`,
        ready,
        status,
        restarts,
        pick(r, ['4d2h', '4d2h', '37h', '12d', '6h41m', '94m', '23d']),
      ]);
    }
  }
  return columns(rows);
}

export function dockerPs(): string {
  const r = rng(13);
  const rows = [['CONTAINER ID', 'IMAGE', 'COMMAND', 'CREATED', 'STATUS', 'PORTS', 'NAMES']];
  const images: Array<[string, string, string]> = [
    ['shop/checkout-api:1.4.0', '"node dist/server.js"', '0.0.0.0:8080->8080/tcp, :::8080->8080/tcp'],
    ['postgres:16-alpine', '"docker-entrypoint.s…"', '5432/tcp'],
    ['redis:7.2', '"docker-entrypoint.s…"', '6379/tcp'],
    ['nginx:1.27', '"/docker-entrypoint.…"', '0.0.0.0:80->80/tcp, 0.0.0.0:443->443/tcp'],
    ['shop/inventory:0.3.1', '"python -m inventory"', ''],
    ['grafana/grafana:11.1.0', '"/run.sh"', '0.0.0.0:3000->3000/tcp'],
    ['shop/ledger:0.2.0', '"/usr/local/bin/ledg…"', ''],
  ];
  for (let i = 0; i < 34; i++) {
    const [image, command, ports] = pick(r, images);
    const exited = i === 9 || i === 22;
    const unhealthy = i === 15;
    rows.push([
      Math.floor(r() * 16 ** 6)
        .toString(16)
        .padStart(6, '0') +
        Math.floor(r() * 16 ** 6)
          .toString(16)
          .padStart(6, '0'),
      image,
      command,
      pick(r, ['2 hours ago', '3 days ago', '5 weeks ago', '40 minutes ago']),
      exited
        ? `Exited (${i === 9 ? 137 : 1}) ${pick(r, ['2 minutes ago', '3 hours ago'])}`
        : unhealthy
          ? 'Up 3 hours (unhealthy)'
          : `Up ${pick(r, ['2 hours', '3 days', '5 weeks (healthy)', '40 minutes'])}`,
      exited ? '' : ports,
      `${image.split(':')[0]!.split('/').pop()}-${i + 1}`,
    ]);
  }
  return columns(rows);
}

export function dfH(): string {
  const r = rng(14);
  const rows = [['Filesystem', 'Size', 'Used', 'Avail', 'Use%', 'Mounted on']];
  rows.push(
    ['udev', '7.8G', '0', '7.8G', '0%', '/dev'],
    ['tmpfs', '1.6G', '2.1M', '1.6G', '1%', '/run'],
    ['/dev/nvme0n1p2', '468G', '451G', '17G', '97%', '/'],
    ['tmpfs', '7.8G', '124M', '7.7G', '2%', '/dev/shm'],
    ['tmpfs', '5.0M', '4.0K', '5.0M', '1%', '/run/lock'],
    ['/dev/nvme0n1p1', '511M', '6.1M', '505M', '2%', '/boot/efi'],
    ['/dev/sdb1', '1.8T', '1.1T', '648G', '63%', '/srv/backups'],
  );
  for (let i = 0; i < 26; i++) {
    const used = Math.floor(r() * 100);
    rows.push([
      `/dev/loop${i}`,
      `${(40 + r() * 200).toFixed(0)}M`,
      `${(40 + r() * 200).toFixed(0)}M`,
      '0',
      '100%',
      `/snap/${pick(r, ['core22', 'core20', 'snapd', 'lxd', 'firefox', 'gtk-common-themes'])}/${1000 + Math.floor(r() * 20000)}`,
    ]);
    if (i % 9 === 3)
      rows.push([
        'overlay',
        '468G',
        '451G',
        '17G',
        `${used}%`,
        `/var/lib/docker/overlay2/${Math.floor(r() * 16 ** 16).toString(16)}/merged`,
      ]);
  }
  rows.push(['tmpfs', '1.6G', '76K', '1.6G', '1%', '/run/user/1000']);
  return columns(rows, new Set([1, 2, 3, 4]), 1);
}

export function ordersCsv(): string {
  const r = rng(15);
  const lines = [
    'order_id,created_at,customer_id,country,items,subtotal_cents,discount_cents,shipping_cents,total_cents,currency,status,payment_method',
  ];
  const start = Date.UTC(2025, 4, 1);
  for (let i = 0; i < 1500; i++) {
    const items = 1 + Math.floor(r() * 6);
    const subtotal = Math.floor(items * (500 + r() * 9000));
    const discount = r() < 0.2 ? Math.floor(subtotal * 0.1) : 0;
    const shipping = pick(r, [0, 0, 490, 690, 1290]);
    const fraud = i === 1111;
    const status = fraud
      ? 'chargeback'
      : i % 97 === 13
        ? 'payment_failed'
        : pick(r, ['paid', 'paid', 'paid', 'shipped', 'shipped', 'delivered', 'refunded']);
    const total = fraud ? 98_450_00 : subtotal - discount + shipping;
    lines.push(
      [
        `ORD-${100000 + i}`,
        new Date(start + i * 1_733_000).toISOString().replace('.000', ''),
        `C${String(Math.floor(r() * 40000)).padStart(6, '0')}`,
        pick(r, ['DE', 'FR', 'NL', 'GB', 'US', 'PL', 'ES', 'IT']),
        fraud ? 212 : items,
        fraud ? 98_450_00 : subtotal,
        discount,
        shipping,
        total,
        pick(r, ['EUR', 'EUR', 'EUR', 'GBP', 'USD']),
        status,
        pick(r, ['card', 'card', 'paypal', 'sepa', 'klarna']),
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

export function latencyTsv(): string {
  const r = rng(16);
  const lines = ['timestamp\tservice\tendpoint\trequests\terrors\tp50_ms\tp95_ms\tp99_ms'];
  const endpoints = [
    ['checkout-api', 'POST /cart'],
    ['checkout-api', 'GET /cart/:id'],
    ['checkout-api', 'POST /checkout'],
    ['inventory', 'GET /stock/:sku'],
    ['inventory', 'POST /reserve'],
    ['receipts', 'GET /receipt/:id'],
  ];
  const start = Date.UTC(2025, 5, 2, 0, 0);
  for (let m = 0; m < 60; m++) {
    for (const [service, endpoint] of endpoints) {
      const incident = m >= 41 && m <= 43 && endpoint === 'POST /reserve';
      const p50 = 8 + r() * 30;
      lines.push(
        [
          `${new Date(start + m * 60_000).toISOString().slice(0, 16)}Z`,
          service,
          endpoint,
          String(Math.floor(200 + r() * 3000)),
          String(incident ? 400 + Math.floor(r() * 300) : Math.floor(r() * 3)),
          p50.toFixed(1),
          (incident ? 4800 + r() * 900 : p50 * (2 + r())).toFixed(1),
          (incident ? 9500 + r() * 500 : p50 * (3.5 + r() * 2)).toFixed(1),
        ].join('\t'),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Kubernetes manifests and a CI workflow for the YAML read. */
export function deployYaml(): string {
  const r = rng(17);
  const out: string[] = ['# Generated from deploy/values.yaml; edit there.'];
  const services = [
    ['checkout-api', 8080, 3],
    ['cart-worker', 0, 4],
    ['receipts', 8081, 2],
    ['inventory', 8000, 3],
    ['ledger-batch', 0, 1],
  ] as const;
  for (const [name, port, replicas] of services) {
    out.push(
      '---',
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      `  name: ${name}`,
      '  namespace: shop',
      '  labels:',
      `    app.kubernetes.io/name: ${name}`,
      '    app.kubernetes.io/part-of: shop',
      'spec:',
      `  replicas: ${replicas}`,
      '  revisionHistoryLimit: 5',
      '  selector:',
      '    matchLabels:',
      `      app.kubernetes.io/name: ${name}`,
      '  template:',
      '    metadata:',
      '      labels:',
      `        app.kubernetes.io/name: ${name}`,
      '    spec:',
      '      serviceAccountName: shop',
      '      containers:',
      `        - name: ${name}`,
      `          image: registry.example.com/shop/${name}:1.4.${Math.floor(r() * 9)}`,
      '          imagePullPolicy: IfNotPresent',
      ...(port ? ['          ports:', `            - containerPort: ${port}`, '              name: http'] : []),
      '          env:',
      '            - name: NODE_ENV',
      '              value: production',
      '            - name: DATABASE_URL',
      '              valueFrom:',
      '                secretKeyRef:',
      '                  name: shop-db',
      '                  key: url',
      '          resources:',
      '            requests:',
      `              cpu: ${pick(r, ['100m', '250m', '500m'])}`,
      `              memory: ${pick(r, ['128Mi', '256Mi', '512Mi'])}`,
      '            limits:',
      `              memory: ${pick(r, ['256Mi', '512Mi', '1Gi'])}`,
      ...(port
        ? [
            '          readinessProbe:',
            '            httpGet:',
            '              path: /healthz',
            `              port: ${port}`,
            '            periodSeconds: 10',
            '          livenessProbe:',
            '            httpGet:',
            '              path: /livez',
            `              port: ${port}`,
            '            failureThreshold: 3',
          ]
        : []),
    );
    if (port)
      out.push(
        '---',
        'apiVersion: v1',
        'kind: Service',
        'metadata:',
        `  name: ${name}`,
        '  namespace: shop',
        'spec:',
        '  selector:',
        `    app.kubernetes.io/name: ${name}`,
        '  ports:',
        `    - port: 80`,
        `      targetPort: ${port}`,
        '      name: http',
      );
  }
  out.push(
    '---',
    'apiVersion: batch/v1',
    'kind: CronJob',
    'metadata:',
    '  name: ledger-close',
    '  namespace: shop',
    'spec:',
    '  schedule: "15 2 * * *"',
    '  concurrencyPolicy: Forbid',
    '  jobTemplate:',
    '    spec:',
    '      backoffLimit: 2',
    '      template:',
    '        spec:',
    '          restartPolicy: OnFailure',
    '          containers:',
    '            - name: ledger',
    '              image: registry.example.com/shop/ledger-batch:0.2.0',
    '              args: ["close-period", "--yesterday"]',
  );
  return `${out.join('\n')}\n`;
}
