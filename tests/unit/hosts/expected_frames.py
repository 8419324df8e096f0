#!/usr/bin/env python3
# Prints the byte arrays of tests/unit/hosts/expected_frames.hpp (inside its namespace, each
# `inline`): the frames the hosts send, built independently of lib/wire (struct.pack, the
# RFC 1071 sum by hand).
# Independent frame builder: struct.pack and RFC 1071 by hand, for the tests' expected bytes.
import struct, ipaddress
def csum(b):
    if len(b) % 2: b += b'\0'
    s = sum(struct.unpack('!%dH' % (len(b)//2), b))
    while s >> 16: s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff
def mac(s): return bytes.fromhex(s.replace(':',''))
def v4(s): return ipaddress.IPv4Address(s).packed
def v6(s): return ipaddress.IPv6Address(s).packed
def eth(dst, src, typ, vlan=None):
    h = mac(dst) + mac(src)
    if vlan is not None: h += struct.pack('!HH', 0x8100, vlan)
    return h + struct.pack('!H', typ)
def pad(f): return f + b'\0' * max(0, 60 - len(f))
def arp(op, sha, spa, tha, tpa): return struct.pack('!HHBBH', 1, 0x0800, 6, 4, op) + mac(sha) + v4(spa) + mac(tha) + v4(tpa)
def ip4(src, dst, proto, payload, ttl=64):
    h = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(payload), 0, 0x4000, ttl, proto, 0, v4(src), v4(dst))
    h = h[:10] + struct.pack('!H', csum(h)) + h[12:]
    return h + payload
def ip6(src, dst, nh, payload, hl):
    return struct.pack('!IHBB', 0x60000000, len(payload), nh, hl) + v6(src) + v6(dst) + payload
def icmp6(src, dst, msg):
    pseudo = v6(src) + v6(dst) + struct.pack('!IxxxB', len(msg), 58)
    c = csum(pseudo + msg)
    return msg[:2] + struct.pack('!H', c) + msg[4:]
def echo4(typ, ident, seq, data):
    m = struct.pack('!BBHHH', typ, 0, 0, ident, seq) + data
    return m[:2] + struct.pack('!H', csum(m)) + m[4:]
def ns(target, sll=None):
    m = struct.pack('!BBHI', 135, 0, 0, 0) + v6(target)
    if sll: m += bytes([1, 1]) + mac(sll)
    return m
def na(flags, target, tll):
    return struct.pack('!BBHI', 136, 0, 0, flags << 24) + v6(target) + bytes([2, 1]) + mac(tll)
H = '02:00:00:00:00:01'
frames = {
 'kArpRequest': pad(eth('ff:ff:ff:ff:ff:ff', H, 0x0806) + arp(1, H, '10.0.0.2', '00:00:00:00:00:00', '10.0.0.1')),
 'kArpReplyVlan': pad(eth('02:aa:bb:cc:dd:ee', H, 0x0806, 100) + arp(2, H, '10.0.0.2', '02:aa:bb:cc:dd:ee', '10.0.0.1')),
 'kGratuitousArp': pad(eth('ff:ff:ff:ff:ff:ff', H, 0x0806) + arp(1, H, '10.0.0.2', '00:00:00:00:00:00', '10.0.0.2')),
 'kNs': eth('33:33:ff:00:00:01', H, 0x86dd) + ip6('2001:db8::2', 'ff02::1:ff00:1', 58, icmp6('2001:db8::2', 'ff02::1:ff00:1', ns('2001:db8::1', H)), 255),
 'kDadProbe': eth('33:33:ff:00:00:01', H, 0x86dd) + ip6('::', 'ff02::1:ff00:1', 58, icmp6('::', 'ff02::1:ff00:1', ns('fe80::ff:fe00:1')), 255),
 'kSolicitedNa': eth('02:aa:bb:cc:dd:ee', H, 0x86dd) + ip6('2001:db8::2', '2001:db8::1', 58, icmp6('2001:db8::2', '2001:db8::1', na(0x60, '2001:db8::2', H)), 255),
 'kUnsolicitedNa': eth('33:33:00:00:00:01', H, 0x86dd) + ip6('2001:db8::2', 'ff02::1', 58, icmp6('2001:db8::2', 'ff02::1', na(0x20, '2001:db8::2', H)), 255),
 'kEcho4Reply': pad(eth('02:aa:bb:cc:dd:ee', H, 0x0800) + ip4('10.0.0.2', '10.0.0.1', 1, echo4(0, 0x1234, 7, b'abcdefgh'))),
 'kEcho6Reply': eth('02:aa:bb:cc:dd:ee', H, 0x86dd, 100) + ip6('2001:db8::2', '2001:db8::1', 58, icmp6('2001:db8::2', '2001:db8::1', struct.pack('!BBHHH', 129, 0, 0, 0x1234, 7) + b'abcdefgh'), 64),
}
for name, f in frames.items():
    print('// %d bytes' % len(f))
    print('const std::vector<uint8_t> %s{' % name)
    for i in range(0, len(f), 16):
        print('    ' + ', '.join('0x%02x' % b for b in f[i:i+16]) + ',')
    print('};')
