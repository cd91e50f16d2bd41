#!/usr/bin/env python3
# A deliberately over-serving EGD server: the negative control of the QEMU
# scenario egd-credit. It behaves as rngd's EGD reserve did before the
# condensing fix (it served credited bytes uncondensed): every
# FIPS_BLOCK_BYTES block it reads from SOURCE counts as credited
# CREDIT_PER_BLOCK bits (39: RDRAND's 1/512 of a bit per bit) and its bytes
# are served as they are, so a guest receives about 64 bytes per credited
# bit instead of 1/8 byte. The scenario runs the same ratio check on its
# counters and must see the check fail.
#
#   raw-egd-server.py SOCKET SUMMARY [SOURCE] [RATE]
#
# SOCKET: unix stream socket to listen on (mode 0600). SUMMARY: file
# written at SIGTERM/SIGINT with one line
#   "raw-egd: summary: bytes served M, credited bits R, blocks B"
# SOURCE: where blocks come from (default /dev/urandom). RATE: bytes per
# second served in all (default 16384, rngd's default --egd-rate; 0: no
# limit). Commands: 0x00 level, 0x01 n non-blocking read, 0x02 n blocking
# read, 0x04 pid; anything else closes the connection. Test use only.
# FIPS_BLOCK_BYTES (fips/fips.h's) must be in the environment.
import os
import select
import signal
import socket
import sys
import time

from fips_env import fips_constant


BLOCK_BYTES = fips_constant("FIPS_BLOCK_BYTES")
CREDIT_PER_BLOCK = BLOCK_BYTES * 8 // 512

if len(sys.argv) < 3:
    sys.exit("usage: raw-egd-server.py SOCKET SUMMARY [SOURCE] [RATE]")
sock_path, summary_path = sys.argv[1], sys.argv[2]
source = open(sys.argv[3] if len(sys.argv) > 3 else "/dev/urandom", "rb", buffering=0)
rate = float(sys.argv[4]) if len(sys.argv) > 4 else 16384.0

served = 0
blocks = 0
block = b""


def take(n):
    """n bytes from the current block, opening (and 'crediting') new ones."""
    global block, blocks
    out = b""
    while len(out) < n:
        if not block:
            block = source.read(BLOCK_BYTES)
            if len(block) != BLOCK_BYTES:
                sys.exit("raw-egd-server: short read from the source")
            blocks += 1
        k = min(n - len(out), len(block))
        out += block[:k]
        block = block[k:]
    return out


stopping = False


def stop(_sig, _frame):
    global stopping
    stopping = True


signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)

try:
    os.unlink(sock_path)
except FileNotFoundError:
    pass
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
old_mask = os.umask(0o177)
listener.bind(sock_path)
os.umask(old_mask)
listener.listen(8)
listener.setblocking(False)

# Per client: bytes received not yet parsed, bytes to send.
inbuf = {}
outbuf = {}
tokens = rate
last = time.monotonic()


def drop(c):
    inbuf.pop(c, None)
    outbuf.pop(c, None)
    c.close()


def parse(c):
    """Turn complete commands into replies; False if the client must go."""
    global served
    buf = inbuf[c]
    while buf:
        cmd = buf[0]
        if cmd == 0x00:
            outbuf[c] += (1 << 20).to_bytes(4, "big")
            buf = buf[1:]
        elif cmd == 0x04:
            pid = str(os.getpid()).encode()
            outbuf[c] += bytes([len(pid)]) + pid
            buf = buf[1:]
        elif cmd in (0x01, 0x02):
            if len(buf) < 2:
                break
            n = buf[1]
            data = take(n)
            served += n  # queued: counted as served even if the client goes first
            outbuf[c] += (bytes([n]) if cmd == 0x01 else b"") + data
            buf = buf[2:]
        else:
            return False
    inbuf[c] = buf
    return True


while not stopping:
    now = time.monotonic()
    if rate > 0:
        tokens = min(rate, tokens + (now - last) * rate)
    last = now
    writers = [c for c, b in outbuf.items() if b] if rate == 0 or tokens >= 1 else []
    timeout = None if rate == 0 or tokens >= 1 else (1 - tokens) / rate
    if timeout is None and not writers:
        timeout = 1.0
    try:
        readable, writable, _ = select.select([listener] + list(inbuf), writers, [], timeout)
    except InterruptedError:
        continue
    for c in readable:
        if c is listener:
            try:
                conn, _ = listener.accept()
            except BlockingIOError:
                continue
            conn.setblocking(False)
            inbuf[conn] = b""
            outbuf[conn] = b""
            continue
        try:
            got = c.recv(4096)
        except (BlockingIOError, InterruptedError):
            continue
        except OSError:
            got = b""
        if not got:
            drop(c)
            continue
        inbuf[c] += got
        if not parse(c):
            drop(c)
    for c in writable:
        if c not in outbuf:
            continue
        n = len(outbuf[c]) if rate == 0 else min(len(outbuf[c]), int(tokens))
        try:
            sent = c.send(outbuf[c][:n])
        except (BlockingIOError, InterruptedError):
            continue
        except OSError:
            drop(c)
            continue
        outbuf[c] = outbuf[c][sent:]
        if rate > 0:
            tokens -= sent

for c in list(inbuf):
    drop(c)
listener.close()
os.unlink(sock_path)
with open(summary_path, "w") as f:
    f.write("raw-egd: summary: bytes served %d, credited bits %d, blocks %d\n"
            % (served, blocks * CREDIT_PER_BLOCK, blocks))
