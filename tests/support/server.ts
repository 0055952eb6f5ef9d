import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import next from "next";
import { afterAll, beforeAll } from "vitest";

const root = path.resolve(import.meta.dirname, "..", "..");

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The production build (`next build`) served over real HTTP on 127.0.0.1 inside the test process,
 * so it shares the test database handle (PGlite cannot be opened by two processes).
 */
export async function startTestServer(): Promise<TestServer> {
  const app = next({ dev: false, dir: root, quiet: true });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
    },
  };
}

/** Starts the server for a test file; call after useTestDatabase() so it sees that database. */
export function useTestServer(): { url: () => string } {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    url: () => {
      if (!server) throw new Error("useTestServer: the server starts in beforeAll");
      return server.url;
    },
  };
}
