import { EventEmitter } from "node:events";
import postgres from "postgres";
import { describe, expect, it } from "vitest";

/** A stand-in for the driver's TCP socket that counts the bytes written to it. */
class FakeSocket extends EventEmitter {
  readyState = "open";
  bytesWritten = 0;
  setKeepAlive() {}
  write(data: Buffer) {
    this.bytesWritten += data.length;
    return true;
  }
  destroy() {
    this.readyState = "closed";
  }
  end() {
    this.readyState = "closed";
  }
}

/**
 * Opens a one-connection pool on fake sockets and runs a query; the sockets listed in `closeEarly` (1-based)
 * close before the driver's deferred write of its start-up message runs. Returns the bytes each socket got.
 */
async function bytesPerSocket(closeEarly: number[]): Promise<number[]> {
  const sockets: FakeSocket[] = [];
  const sql = postgres({
    host: "fake.invalid",
    database: "fake",
    username: "fake",
    max: 1,
    connect_timeout: 1,
    backoff: () => 0,
    // `socket` is a driver option missing from its type definitions: it supplies the connection's socket.
    socket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      // Queued before the driver's own setImmediate for the write, so the close always comes first.
      if (closeEarly.includes(sockets.length)) setImmediate(() => socket.emit("close", false));
      return socket;
    },
  } as unknown as postgres.Options<Record<string, never>>);
  sql`select 1`.catch(() => {});
  await new Promise((resolve) => setTimeout(resolve, 300));
  await sql.end({ timeout: 0 }).catch(() => {});
  return sockets.map((s) => s.bytesWritten);
}

// patches/postgres+3.4.9.patch (patch-package, postinstall) repairs postgres.js 3.4.9; without it a connection that lost
// its socket with a write queued never writes again, and the pool loses that slot until the process restarts.
describe("postgres.js driver as installed", () => {
  it("writes the start-up message on an undisturbed connection", async () => {
    expect((await bytesPerSocket([]))[0]).toBeGreaterThan(0);
  });

  it("writes again after reconnecting when the socket closed with a write still queued", async () => {
    const written = await bytesPerSocket([1]);
    expect(written.length).toBeGreaterThanOrEqual(2);
    expect(written[0]).toBe(0);
    expect(written[1], "reconnected socket got nothing: is patches/postgres+3.4.9.patch applied?").toBeGreaterThan(0);
  });
});
