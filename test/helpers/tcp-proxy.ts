// A TCP proxy in front of a real server that a test can cut and restore: cutting refuses new connections and
// ends the open ones, exactly what clients see when the server goes away.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });
  await listen();
  return {
    get port() {
      return port;
    },
    cut,
    restore: listen,
    close: cut,
  };
}

/** A proxy in front of the server of `raw` (a postgres:// or redis:// URL) and the URL that goes through it. */
export async function proxyFor(raw: string, defaultPort: number): Promise<{ proxy: TcpProxy; url: URL }> {
  const target = new URL(raw);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || defaultPort) });
  const url = new URL(raw);
  url.host = `127.0.0.1:${proxy.port}`;
  return { proxy, url };
}

/** A fresh schema on TEST_DATABASE_URL's server, reached through a proxy the test can cut. */
export async function proxiedDatabase(raw: string): Promise<{ proxy: TcpProxy; url: string; dispose(): Promise<void> }> {
  const { default: pg } = await import('pg');
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: raw });
    await client.connect();
    await client.query(query);
    await client.end();
  };
  const schema = `t_${Math.random().toString(36).slice(2, 12)}`;
  await admin(`create schema ${schema}`);
  const { proxy, url } = await proxyFor(raw, 5432);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    proxy,
    url: url.href,
    async dispose() {
      await proxy.close();
      await admin(`drop schema if exists ${schema} cascade`);
    },
  };
}
