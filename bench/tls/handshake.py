#!/usr/bin/python3
"""TLS handshake load for nginx-gen-bench: every request on a new connection and handshake.

Each of --conns processes loops until --seconds have passed: TCP connect, TLS handshake with
SNI, one `GET` with `Connection: close`, read to the end, close. With --resume a process
offers the session of its previous connection (a session ID or a ticket, whichever the
server issued) so the server can resume it; without it no session is ever offered, so every
handshake is a full one. (wrk and h2load cannot make full handshakes only: both keep the
TLS session across reconnects and resume whenever the server allows it.)

Processes, not threads: one process per connection in flight, so no interpreter lock sits
between a handshake and its latency. The certificate is not checked against a CA (the
benchmark's is self-signed, as with wrk and `curl -k`); the handshake's signatures are
verified as in any TLS client.

Prints one line in the format of wrk/report.lua, which nginx-gen-bench reads:
NGB requests=N duration_us=N bytes=N connect=N read=N write=0 status=N timeout=N
    p50=US p99=US max=US resumed=N tls13=N
(tls13: connections that negotiated TLS 1.3, the others TLS 1.2 or older.)
"""

import argparse
import json
import os
import socket
import ssl
import struct
import time

COUNTERS = ("requests", "bytes", "connect", "read", "status", "timeout", "resumed", "tls13")


def percentile(sorted_us, p):
    """Nearest rank, as nginx-gen-bench's h2load reader."""
    if not sorted_us:
        return 0
    rank = -(-len(sorted_us) * p // 100)
    return sorted_us[max(1, min(len(sorted_us), rank)) - 1]


def load(args, deadline):
    """One connection at a time until the deadline; returns the counters and latencies."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    request = (
        f"GET {args.path} HTTP/1.1\r\nHost: {args.sni}\r\nConnection: close\r\n\r\n"
    ).encode()
    out = {k: 0 for k in COUNTERS}
    latency = []
    session = None
    while time.monotonic() < deadline:
        start = time.monotonic()
        try:
            sock = socket.create_connection((args.addr, args.port), timeout=4)
        except OSError:
            out["connect"] += 1
            continue
        # As browsers and wrk do: without it, on a TLS 1.2 resumption the request written
        # right after the client's Finished waits for the server's delayed ACK (Nagle).
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        data = bytearray()
        try:
            with ctx.wrap_socket(sock, server_hostname=args.sni, session=session) as tls:
                tls.sendall(request)
                while chunk := tls.recv(65536):
                    data += chunk
                if tls.session_reused:
                    out["resumed"] += 1
                if tls.version() == "TLSv1.3":
                    out["tls13"] += 1
                if args.resume:
                    # Taken after the response, so a TLS 1.3 ticket has arrived.
                    session = tls.session
        except socket.timeout:
            out["timeout"] += 1
            continue
        except OSError:  # ssl.SSLError is an OSError
            out["read"] += 1
            continue
        finally:
            sock.close()
        if not data.startswith(b"HTTP/1.1 ") or data[9:10] not in (b"2", b"3"):
            out["status"] += 1
        out["requests"] += 1
        out["bytes"] += len(data)
        latency.append(int((time.monotonic() - start) * 1e6))
    return out, latency


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--addr", required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--sni", required=True)
    p.add_argument("--path", default="/")
    p.add_argument("--conns", type=int, default=1, help="connections in flight (processes)")
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--resume", action="store_true")
    args = p.parse_args()

    # Every process is forked first and waits for the deadline on `go`, so the forks are
    # not part of the measured time (the monotonic clock is the same in every process).
    go_r, go_w = os.pipe()
    children = []
    for _ in range(max(1, args.conns)):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            os.close(go_w)
            (deadline,) = struct.unpack("d", os.read(go_r, 8))
            result = load(args, deadline)
            with os.fdopen(w, "w") as f:
                json.dump(result, f)
            os._exit(0)
        os.close(w)
        children.append((pid, r))
    os.close(go_r)
    begun = time.monotonic()
    os.write(go_w, struct.pack("d", begun + args.seconds) * len(children))
    os.close(go_w)
    total = {k: 0 for k in COUNTERS}
    latency = []
    for pid, r in children:
        with os.fdopen(r) as f:
            out, lat = json.load(f)
        os.waitpid(pid, 0)
        for k in COUNTERS:
            total[k] += out[k]
        latency += lat
    took = time.monotonic() - begun
    latency.sort()
    print(
        f"NGB requests={total['requests']} duration_us={int(took * 1e6)} "
        f"bytes={total['bytes']} connect={total['connect']} read={total['read']} write=0 "
        f"status={total['status']} timeout={total['timeout']} p50={percentile(latency, 50)} "
        f"p99={percentile(latency, 99)} max={latency[-1] if latency else 0} "
        f"resumed={total['resumed']} tls13={total['tls13']}"
    )


if __name__ == "__main__":
    main()
