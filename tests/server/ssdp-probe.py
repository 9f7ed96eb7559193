#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ssdp-probe.py - an SSDP peer for tests/server/ssdp.sh: a SAT>IP
client's M-SEARCH, a listener for NOTIFY, another server announcing a
DEVICEID, and hostile datagrams.  Messages received are printed one per
line as JSON: {"from": "ADDR:PORT", "start": FIRST LINE, "h": {NAME: VALUE}}
with the header names upper-cased.

  search [--to ADDR] [--if ADDR] [--st ST] [--deviceid N] [--wait S]
  listen [--if ADDR] [--wait S]          NOTIFY and M-SEARCH on port 1900
  notify [--if ADDR] --deviceid N --uuid UUID [--location URL]
                                         an ssdp:alive of a server
  garbage [--to ADDR] [--if ADDR] [--count N]     hostile datagrams
"""
import argparse
import json
import random
import socket
import struct
import sys
import time

GROUP = "239.255.255.250"
PORT = 1900
SATIP = "urn:ses-com:device:SatIPServer:1"


def parse(data, src):
    text = data.decode("utf-8", "replace")
    lines = text.replace("\r\n", "\n").split("\n")
    h = {}
    for line in lines[1:]:
        if not line:
            break
        if ":" in line:
            k, v = line.split(":", 1)
            h.setdefault(k.strip().upper(), v.strip())
    return {"from": "%s:%d" % src, "start": lines[0], "h": h}


def udp(iface):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    if iface:
        s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF,
                     socket.inet_aton(iface))
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 2)
    return s


def collect(s, wait):
    end = time.monotonic() + wait
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return
        s.settimeout(left)
        try:
            data, src = s.recvfrom(4096)
        except socket.timeout:
            return
        print(json.dumps(parse(data, src)), flush=True)


def search(a):
    s = udp(a.iface)
    s.bind((a.iface or "0.0.0.0", 0))
    msg = ("M-SEARCH * HTTP/1.1\r\nHOST: %s:%d\r\n"
           "MAN: \"ssdp:discover\"\r\nMX: 2\r\nST: %s\r\n" % (GROUP, PORT, a.st))
    if a.deviceid is not None:
        msg += "DEVICEID.SES.COM: %d\r\n" % a.deviceid
    msg += "USER-AGENT: ssdp-probe\r\n\r\n"
    for _ in range(a.repeat):
        s.sendto(msg.encode(), (a.to, PORT))
    collect(s, a.wait)


def listen(a):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("0.0.0.0", PORT))
    mreq = struct.pack("4s4s", socket.inet_aton(GROUP),
                       socket.inet_aton(a.iface or "127.0.0.1"))
    s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreq)
    print(json.dumps({"listening": True}), flush=True)
    collect(s, a.wait)


def notify(a):
    s = udp(a.iface)
    if a.iface:
        s.bind((a.iface, 0))
    msg = ("NOTIFY * HTTP/1.1\r\nHOST: %s:%d\r\nCACHE-CONTROL: max-age=1800\r\n"
           "LOCATION: %s\r\nNT: %s\r\nNTS: ssdp:alive\r\n"
           "SERVER: Linux/1 UPnP/1.1 probe/1\r\nUSN: uuid:%s::%s\r\n"
           "BOOTID.UPNP.ORG: 1\r\nCONFIGID.UPNP.ORG: 1\r\n"
           "DEVICEID.SES.COM: %d\r\n\r\n"
           % (GROUP, PORT, a.location or "http://%s:8080/desc.xml"
              % (a.iface or "127.0.0.1"), SATIP, a.uuid, SATIP,
              a.deviceid))
    s.sendto(msg.encode(), (GROUP, PORT))


def garbage(a):
    rnd = random.Random(a.seed)
    s = udp(a.iface)
    head = "M-SEARCH * HTTP/1.1\r\n"
    cases = [
        b"", b"\0", b"M-SEARCH", head.encode(),
        (head + "ST:").encode(), (head + "ST: ssdp:all").encode(),
        (head + "ST: ssdp:all\0\r\n\r\n").encode(),
        (head + ":::::\r\n" * 500).encode(),
        (head + "ST" + " " * 3000 + ": ssdp:all\r\n").encode(),
        (head + "ST: " + "x" * 1400 + "\r\n").encode(),
        (head + "DEVICEID.SES.COM: 99999999999999999999\r\nST: upnp:x\r\n").encode(),
        (head + "DEVICEID.SES.COM: -1\r\nDEVICEID.SES.COM: 0\r\n").encode(),
        ("NOTIFY * HTTP/1.1\r\nNT: %s\r\nNTS: ssdp:alive\r\nUSN\r\n"
         "DEVICEID.SES.COM: 1\r\n" % SATIP).encode(),
        b"\n" * 2000, b"\r" * 2000, b":" * 2000, bytes(range(256)) * 8,
        b"x" * 65000,
    ]
    for c in cases:
        s.sendto(c, (a.to, PORT))
    for _ in range(a.count):
        n = rnd.randrange(0, 1600)
        if rnd.random() < 0.5:
            base = (head + "ST: ssdp:all\r\nMAN: \"ssdp:discover\"\r\n"
                    "DEVICEID.SES.COM: 7\r\nMX: 1\r\n\r\n").encode()
            b = bytearray(base)
            for _ in range(rnd.randrange(1, 8)):
                b[rnd.randrange(len(b))] = rnd.randrange(256)
            data = bytes(b[:n])
        else:
            data = bytes(rnd.randrange(256) for _ in range(n))
        s.sendto(data, (a.to, PORT))
        if _ % 64 == 0:
            time.sleep(0.01)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("cmd", choices=["search", "listen", "notify", "garbage"])
    p.add_argument("--to", default=GROUP)
    p.add_argument("--if", dest="iface")
    p.add_argument("--st", default=SATIP)
    p.add_argument("--deviceid", type=int)
    p.add_argument("--location")
    p.add_argument("--uuid", default="00000000-0000-0000-0000-000000000001")
    p.add_argument("--wait", type=float, default=2.0)
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--count", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    {"search": search, "listen": listen, "notify": notify,
     "garbage": garbage}[a.cmd](a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
