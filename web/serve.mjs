// A static file server for the browser build, on 127.0.0.1 only (scripts/web.sh and the
// browser test). Serves the files of one folder, nothing above it.
// Usage: node web/serve.mjs FOLDER PORT   (PORT 0: any free port; the address is printed)
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const kTypes = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.data': 'application/octet-stream', '.json': 'application/json', '.png': 'image/png',
};

/** Starts serving `folder` on 127.0.0.1:`port`; resolves to the server once it listens. */
export function serve(folder, port) {
  const root = resolve(folder);
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    const file = normalize(join(root, path === '/' ? '/index.html' : path));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end('outside the served folder');
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'Content-Type': kTypes[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok(server));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [folder, port] = process.argv.slice(2);
  if (!folder) {
    console.error('usage: node web/serve.mjs FOLDER [PORT]');
    process.exit(2);
  }
  const server = await serve(folder, Number(port ?? 8029));
  console.log(`serving ${folder} on http://127.0.0.1:${server.address().port}/`);
}
