import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Respond } from "./receiver";

/*
 * Webhook receivers that misbehave, as `Respond` functions for startReceiver scripts. Each stops its own
 * timers when the connection closes, so a closed receiver leaves nothing running.
 */

/** Headers at once, then one byte of body every `everyMs`, never finishing. */
export function trickleBody(everyMs = 50): Respond {
  return (res) => {
    res.writeHead(200, { "Content-Type": "text/plain" });
    const timer = setInterval(() => res.write("."), everyMs);
    res.on("close", () => clearInterval(timer));
  };
}

export interface EndlessBody {
  respond: Respond;
  /** Body bytes handed to the socket so far, over every response. */
  bytesSent(): number;
}

/**
 * A 200 whose chunked body never ends, written as fast as the client reads it. Writes wait for `drain`,
 * so any memory that grows is the client's, not this server's.
 */
export function endlessBody(chunkBytes = 64 * 1024): EndlessBody {
  const chunk = Buffer.alloc(chunkBytes, "x");
  let sent = 0;
  return {
    bytesSent: () => sent,
    respond: (res) => {
      res.writeHead(200, { "Content-Type": "text/plain" });
      const pump = () => {
        while (!res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) {
            res.once("drain", pump);
            return;
          }
        }
      };
      pump();
    },
  };
}

/** Reads the request, then resets the TCP connection (RST) without answering. */
export const resetBeforeAnswer: Respond = (res) => {
  res.socket?.resetAndDestroy();
};

/** Sends a 200 with a declared length and part of the body, then resets the connection. */
export const resetMidBody: Respond = (res) => {
  res.writeHead(200, { "Content-Type": "text/plain", "Content-Length": "10000" });
  res.write("partial", () => setTimeout(() => res.socket?.resetAndDestroy(), 20));
};

let certificate: { key: string; cert: string } | undefined;

/** A throw-away self-signed certificate for CN=localhost (Node cannot make X.509 certificates itself). */
export function selfSignedCertificate(): { key: string; cert: string } {
  if (certificate) return certificate;
  const dir = mkdtempSync(path.join(tmpdir(), "hostile-tls-"));
  try {
    const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1", "-keyout", key, "-out", cert], {
      stdio: "ignore",
    });
    certificate = { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
    return certificate;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
