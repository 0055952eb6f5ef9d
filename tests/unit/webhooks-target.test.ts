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
    "192.0.2.1",
    "198.51.100.7",
    "203.0.113.9",
  ])("refuses %s", (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each([
    // IPv4-translated, 6to4 and Teredo forms of private or loopback IPv4 addresses (the examples)
    "::ffff:0:7f00:1",
    "::ffff:0:127.0.0.1",
    "::ffff:0:a9fe:a9fe",
    "2002:7f00:1::",
    "2002:a00:1::1",
    "2002:a9fe:a9fe::",
    "2001::1",
    "2001:0:7f00:1::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo client 192.0.2.45 (documentation)
    "2001:0:4136:e378:8000:63bf:80ff:fffe", // Teredo client 127.0.0.1
    "2001:0:4136:e378:8000:63bf:f5ff:fffe", // Teredo client 10.0.0.1
    // NAT64 with a private IPv4 inside, and the local-use NAT64 prefix
    "64:ff9b::a00:1",
    "64:ff9b::10.0.0.1",
    "64:ff9b::7f00:1",
    "64:ff9b:1::808:808",
    // IPv4-compatible
    "::a00:1",
    "::192.168.0.1",
    // Non-global IPv6 ranges
    "fec0::1",
    "fd12:3456:789a::1",
    "fc00:ec2::254",
    "febf::1",
    "ff0e::1",
    "100::1",
    "2001:db8::1",
    "2001:db8:ffff::1",
    "2001:10::1",
    "2001:20::1",
    "2001:2::1",
    "2001:1::1",
    "3fff::1",
    "4000::1",
    "5f00::1",
    "::2",
  ])("refuses the IPv6 address %s", (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
    "::ffff:8.8.8.8",
    "::ffff:0:808:808",
    "64:ff9b::808:808",
    "2002:808:808::1", // 6to4 of 8.8.8.8
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7", // Teredo: server 65.54.227.120, client 8.8.8.8
  ])("allows %s", (address) => {
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
    for (const url of ["https://127.0.0.1/x", "https://[::1]/x", "https://[::ffff:127.0.0.1]/x", "https://[::ffff:0:7f00:1]/", "https://[2002:7f00:1::]/", "https://[2001::1]/", "https://169.254.169.254/latest", "https://localhost/x"]) {
      await expect(checkTarget(url, false), url).rejects.toThrow(/loopback|private|resolve/);
    }
    await expect(checkTarget("https://does-not-exist.invalid/x", false)).rejects.toThrow(/does not resolve/);
    await expect(checkTarget("http://127.0.0.1:4000/x", true)).resolves.toMatchObject({ address: "127.0.0.1", family: 4 });
    await expect(checkTarget("https://93.184.216.34/x", false)).resolves.toMatchObject({ address: "93.184.216.34" });
  });
});
