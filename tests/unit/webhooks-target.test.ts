import { describe, expect, it } from "vitest";
import { checkTarget, isRefusedAddress, urlProblem } from "@/lib/webhooks/target";

describe("webhook target rules", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "fe80::1",
    "fe80::1%eth0",
    "fc00::1",
    "fd00:ec2::254",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "::ffff:10.0.0.1",
    "::127.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "ff02::1",
    "not-an-ip",
  ])("refuses %s", (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"])("allows %s", (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });

  it("accepts only https URLs without credentials unless private targets are allowed", () => {
    expect(urlProblem("https://hooks.example.com/x", false)).toBeNull();
    expect(urlProblem("http://hooks.example.com/x", false)).toMatch(/https/);
    expect(urlProblem("ftp://hooks.example.com/x", false)).toMatch(/https/);
    expect(urlProblem("https://user:pw@hooks.example.com/x", false)).toMatch(/credentials/);
    expect(urlProblem("https://user@hooks.example.com/x", false)).toMatch(/credentials/);
    expect(urlProblem("hooks.example.com/x", false)).toMatch(/absolute/);
    expect(urlProblem("http://127.0.0.1:4000/x", true)).toBeNull();
  });

  it("refuses hosts that are or resolve to local addresses, and allows them with the setting", async () => {
    for (const url of ["https://127.0.0.1/x", "https://[::1]/x", "https://[::ffff:127.0.0.1]/x", "https://169.254.169.254/latest", "https://localhost/x"]) {
      await expect(checkTarget(url, false), url).rejects.toThrow(/loopback|private|resolve/);
    }
    await expect(checkTarget("https://does-not-exist.invalid/x", false)).rejects.toThrow(/does not resolve/);
    await expect(checkTarget("http://127.0.0.1:4000/x", true)).resolves.toMatchObject({ address: "127.0.0.1", family: 4 });
    await expect(checkTarget("https://93.184.216.34/x", false)).resolves.toMatchObject({ address: "93.184.216.34" });
  });
});
