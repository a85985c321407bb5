// npm's `prepare`: builds after `npm install` / `npm ci` in a clone, so that
// `npm start`, the CLI and the tests find dist/ and build/squeeze.wasm. npm also
// runs `prepare` after `prepack` on `npm pack` / `npm publish`, where `prepack`
// has just built: skip the second build there.
import { execSync } from 'node:child_process';

if (!['pack', 'publish'].includes(process.env.npm_command ?? '')) execSync('npm run build', { stdio: 'inherit' });
