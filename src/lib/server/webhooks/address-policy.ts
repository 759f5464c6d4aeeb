import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may not point (decisions.md "Following a wallet live", SSRF): loopback,
 * private, link-local, CGNAT, multicast, IPv4-mapped and NAT64 addresses, and the unspecified,
 * reserved and documentation ranges beside them. Checked at registration on a literal address or a
 * name that resolves, and at every attempt on the address the request then connects to.
 */
// Two lists: Node's BlockList matches IPv4 addresses against IPv6 rules as IPv4-mapped, so the
// ::ffff:0:0/96 rule would refuse every IPv4 address if both sat in one list.
const refused4 = new BlockList();
const refused6 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  refused4.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  refused6.addSubnet(net, bits, 'ipv6');
}

/** True when a webhook may not connect to this IP address (v4 or v6 text). */
export function isRefusedAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return true;
  return family === 4 ? refused4.check(ip, 'ipv4') : refused6.check(ip, 'ipv6');
}
