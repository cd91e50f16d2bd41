#!/usr/bin/env python3
# A tcsd that accepts and never answers: listens on 127.0.0.1 (loopback
# only), prints its port, accepts every connection and holds it open
# without reading or writing, until it is killed or LIFETIME seconds pass.
#   silent-server.py [LIFETIME]
import socket
import sys
import time

lifetime = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(16)
listener.settimeout(0.2)
print(listener.getsockname()[1], flush=True)
held = []
end = time.monotonic() + lifetime
while time.monotonic() < end:
    try:
        conn, _ = listener.accept()
        held.append(conn)
    except socket.timeout:
        pass
