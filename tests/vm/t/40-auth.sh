#!/bin/bash
# Pre-shared key authentication across network namespaces (docs/security.md):
# the right key configures the adapter and a tune locks; a wrong key, a
# client without a key, a server without a key and a server that cannot
# prove the key are refused before any tuner is touched, the server's log
# naming the client's address; a key file readable by others is refused at
# start by both daemons.
set -euo pipefail
. "$VT_ROOT/tests/vm/lib.sh"
trap netns_cleanup EXIT

vt_load adapters=2
netns_setup

head -c 32 /dev/urandom | base64 >key
head -c 48 /dev/urandom | od -An -tx1 | tr -d ' \n' >wrong
chmod 600 key wrong
[ "$(stat -c %a key)" = 600 ] || fail "cannot set mode 600 on $VT_RESULTS/key"
cp key open.key
chmod 644 open.key

unconfigured() {	# unconfigured PROC: no client configured the adapter
	grep -q "^name: vTuner (no client)" "$1" || { cat "$1"; fail "$1 was configured"; }
}
no_tuner_opened() {	# no_tuner_opened LOG
	if grep -q "tuner [0-9]* (.*) opened" "$1"; then
		cat "$1"
		fail "a tuner was listed or opened for an unauthenticated client"
	fi
}
# client_try NAME DEVICE ARGS...: vtunerc that must be refused; runs 3 s.
client_try() {
	local name=$1 dev=$2
	shift 2
	ip netns exec cli timeout 3 "$VTUNERC" -f -v -d "$dev" -s 10.99.0.1 -t 0 "$@" \
		>"$name.log" 2>&1 || true
	head -n 5 "$name.log"
	unconfigured "/proc/${dev#/dev/}"
}

# ---- a key file others can read: a clear error at start ----------------
rc=0
ip netns exec srv "$VTUNERD" -f --sim -l 10.99.0.1:5911 --psk-file open.key \
	>open-srv.log 2>&1 || rc=$?
cat open-srv.log
[ "$rc" = 1 ] || fail "vtunerd with a world-readable key: exit $rc, not 1"
grep -q "open.key: key file is accessible by other users (mode 0644)" open-srv.log ||
	fail "vtunerd: no clear error for a world-readable key file"
rc=0
ip netns exec cli "$VTUNERC" -f -d /dev/vtunerc0 -s 10.99.0.1 --psk-file open.key \
	>open-cli.log 2>&1 || rc=$?
cat open-cli.log
[ "$rc" = 1 ] || fail "vtunerc with a world-readable key: exit $rc, not 1"
grep -q "accessible by other users" open-cli.log ||
	fail "vtunerc: no clear error for a world-readable key file"
printf 'c2hvcnQ=\n' >short.key
chmod 600 short.key
rc=0
ip netns exec srv "$VTUNERD" -f --sim -l 10.99.0.1:5911 --psk-file short.key \
	>short.log 2>&1 || rc=$?
cat short.log
[ "$rc" = 1 ] || fail "vtunerd with a 5-byte key: exit $rc, not 1"
grep -q "at least 32" short.log || fail "vtunerd: no clear error for a short key"

# ---- a server with the key -----------------------------------------------
vtunerd_start srv --sim --sim-tuners 1 -l 10.99.0.1:5911 --psk-file key

log "wrong key"
client_try wrongkey /dev/vtunerc0 --psk-file wrong
grep -q "authentication failed: wrong key" wrongkey.log || fail "vtunerc: no wrong-key message"
grep -Eq "10\.99\.0\.2:[0-9]+: authentication failed \(wrong key\)" srv.log ||
	{ cat srv.log; fail "vtunerd: no log line naming the wrong-key client"; }
no_tuner_opened srv.log

log "no key on the client"
client_try nokey /dev/vtunerc0
grep -q "HELLO refused: .*the client has no key" nokey.log || fail "vtunerc: no no-key message"
grep -Eq "10\.99\.0\.2:[0-9]+: authentication failed \(the client has no key" srv.log ||
	{ cat srv.log; fail "vtunerd: no log line naming the keyless client"; }
no_tuner_opened srv.log

log "a raw client sending LIST_TUNERS without AUTH"
ip netns exec cli python3 - <<'PY' >raw.out 2>&1 || true
import socket, struct, os
s = socket.create_connection(("10.99.0.1", 5911), timeout=3)
def frame(t, reqid, p=b""):
    return struct.pack(">HHHHII", 0x5654, t, 0, 0, len(p), reqid) + p
name = b"raw"
hello = struct.pack(">HHI", 1, 1, 3) + bytes([len(name)]) + name + os.urandom(32)  # AUTH | SEAL
s.sendall(frame(1, 1, hello) + frame(0x10, 2) + frame(0x12, 3, b"\0\0\0\0"))
data = b""
while True:
    try:
        b = s.recv(65536)
    except Exception:
        break
    if not b:
        break
    data += b
types = []
while len(data) >= 16:
    magic, t, _, _, ln, rid = struct.unpack(">HHHHII", data[:16])
    types.append(t)
    data = data[16 + ln:]
print("types", " ".join("%04x" % t for t in types))
PY
cat raw.out
grep -q "^types 0002 0004$" raw.out || fail "raw client: expected HELLO_REPLY, ERROR, close"
grep -Eq "10\.99\.0\.2:[0-9]+: authentication failed \(LIST_TUNERS before AUTH\)" srv.log ||
	{ cat srv.log; fail "vtunerd: LIST_TUNERS before AUTH not refused"; }
no_tuner_opened srv.log

log "the right key"
vtunerc_start cli /dev/vtunerc0 -s 10.99.0.1 -t 0 --psk-file key
cat /proc/vtunerc0
grep -q "server 'vtunerd' authenticated" cli.log || fail "vtunerc did not authenticate the server"
grep -Eq "#[0-9]+ 10\.99\.0\.2:[0-9]+: client 'vtunerc' authenticated" srv.log ||
	fail "vtunerd did not authenticate the client"
cat >t.conf <<'CONF'
[Sim Local]
	SERVICE_ID = 401
	VIDEO_PID = 257
	AUDIO_PID = 258
	DELIVERY_SYSTEM = DVBT
	FREQUENCY = 506000000
	BANDWIDTH_HZ = 8000000
CONF
timeout 30 dvbv5-zap -a 0 -c t.conf -x "Sim Local" >zap.out 2>&1 || true
tail -n 3 zap.out
grep -q "Lock" zap.out || fail "no lock with the right key"
timeout 30 dvbv5-zap -a 0 -c t.conf -r -o rec.ts -t 4 "Sim Local" >rec.out 2>&1 || true
size=$(stat -c %s rec.ts 2>/dev/null || echo 0)
log "recorded $size bytes through the authenticated data connection"
[ "$size" -gt 500000 ] || { tail rec.out; fail "no TS through the authenticated data connection"; }
grep -Eq "data connection of #[0-9]+" srv.log || fail "no data connection attached"
daemon_stop cli
daemon_stop srv

# ---- a server without the key: the client refuses it ----------------------
log "a server without a key"
vtunerd_start plain --sim --sim-tuners 1 -l 10.99.0.1:5911
client_try keyless-server /dev/vtunerc1 --psk-file key
grep -q "authentication failed: the server has no key" keyless-server.log ||
	fail "vtunerc accepted a server without a key"
no_tuner_opened plain.log
daemon_stop plain

# ---- a malicious server: grants AUTH, cannot prove the key ----------------
log "a server that cannot prove the key"
ip netns exec srv python3 - >fake.log 2>&1 <<'PY' &
import socket, struct, os, sys
l = socket.socket()
l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
l.bind(("10.99.0.1", 5911))
l.listen(4)
l.settimeout(8)
def frame(t, reqid, p=b""):
    return struct.pack(">HHHHII", 0x5654, t, 0, 0, len(p), reqid) + p
try:
    while True:
        c, a = l.accept()
        c.settimeout(2)
        buf = b""
        try:
            while True:
                b = c.recv(4096)
                if not b:
                    break
                buf += b
                while len(buf) >= 16:
                    _, t, _, _, ln, rid = struct.unpack(">HHHHII", buf[:16])
                    if len(buf) < 16 + ln:
                        break
                    print("got %04x" % t, flush=True)
                    buf = buf[16 + ln:]
                    if t == 1:
                        n = b"evil"
                        c.sendall(frame(2, rid, struct.pack(">HHI", 1, 0, 3) +
                                        bytes([len(n)]) + n + os.urandom(32)))
                    elif t == 7:
                        c.sendall(frame(8, rid, os.urandom(32)))
        except socket.timeout:
            pass
        c.close()
except socket.timeout:
    pass
PY
fake=$!
for _ in $(seq 50); do
	ip netns exec srv ss -ltn 2>/dev/null | grep -q ":5911 " && break
	sleep 0.1
done
client_try fake-server /dev/vtunerc1 --psk-file key
wait "$fake" || true
cat fake.log
grep -q "the server could not prove the key" fake-server.log ||
	fail "vtunerc did not refuse a server without a valid proof"
grep -q "got 0007" fake.log || fail "the fake server saw no AUTH"
if grep -q "got 0010\|got 0012" fake.log; then
	fail "vtunerc sent LIST_TUNERS or OPEN_TUNER to an unproven server"
fi
log "ok"
