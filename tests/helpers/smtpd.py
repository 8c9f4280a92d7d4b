#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""smtpd.py: a real SMTP server for robot's tests (aiosmtpd), on a free
loopback port.

    smtpd.py --port-file F --dir D [--starttls CERT KEY] [--smtps CERT KEY]
             [--auth USER:PASSWORD] [--delay MS]

It binds 127.0.0.1 port 0, writes the port to F, and stores each message it
accepts as D/N.eml (the bytes received, CRLF, dots unstuffed) with
D/N.env (JSON: mail_from, rcpt_tos, session).  The session number counts
connections, so a test can tell how many a run made.

Exact replies, chosen by the test through addresses and one header:
  MAIL FROM mail550-*@...      550 5.7.1 at MAIL
  RCPT TO   rcpt550-*@...      550 5.1.1 at RCPT (that recipient only)
            rcpt451-*@...      451 4.7.1 at RCPT
            rcpt421-*@...      421 4.3.2 at RCPT, then the connection closes
  a header  X-Test-Reply: 554  554 5.7.1 at the end of DATA (also 451, 452,
                               550; 421 closes the connection)
--once makes each of these faults happen once per address (or message):
the next try is accepted.  --delay MS waits before answering the end of
DATA.  --starttls requires
STARTTLS; --smtps speaks TLS from the start; --auth requires AUTH (over
TLS) with that user and password.  Stop it with SIGTERM (by PID).
"""
import argparse
import asyncio
import itertools
import json
import os
import re
import signal
import socket
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

sessions = itertools.count(1)
messages = itertools.count(1)


class Handler:
    def __init__(self, directory, delay, once):
        self.dir = directory
        self.delay = delay
        self.once = once
        self.seen = set()

    def fault(self, key):
        """Whether a fault for key happens now (always, or --once)."""
        if not self.once:
            return True
        if key in self.seen:
            return False
        self.seen.add(key)
        return True

    async def handle_MAIL(self, server, session, envelope, address, options):
        if address.startswith("mail550-") and self.fault("M" + address):
            return "550 5.7.1 <%s>: Sender address rejected" % address
        envelope.mail_from = address
        envelope.mail_options.extend(options)
        return "250 2.1.0 Ok"

    async def handle_RCPT(self, server, session, envelope, address, options):
        if address.startswith("rcpt550-") and self.fault("R" + address):
            return "550 5.1.1 <%s>: Recipient address rejected" % address
        if address.startswith("rcpt451-") and self.fault("R" + address):
            return "451 4.7.1 <%s>: Try again later" % address
        if address.startswith("rcpt421-") and self.fault("R" + address):
            asyncio.get_running_loop().call_later(0.05, server.transport.close)
            return "421 4.3.2 Service shutting down"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 Ok"

    async def handle_DATA(self, server, session, envelope):
        if self.delay:
            await asyncio.sleep(self.delay / 1000.0)
        head = envelope.original_content.split(b"\r\n\r\n", 1)[0]
        m = re.search(rb"^X-Test-Reply: *([0-9]{3})", head, re.M | re.I)
        mid = re.search(rb"^Message-ID: *(\S+)", head, re.M | re.I)
        if m and self.fault(b"D" + (mid.group(1) if mid else b"")):
            code = m.group(1).decode()
            if code == "421":
                asyncio.get_running_loop().call_later(
                    0.05, server.transport.close)
                return "421 4.3.2 Service shutting down"
            return {"554": "554 5.7.1 Message rejected as spam",
                    "550": "550 5.7.1 Message refused",
                    "451": "451 4.3.0 Local error in processing",
                    "452": "452 4.3.1 Insufficient system storage"}[code]
        n = next(messages)
        base = os.path.join(self.dir, str(n))
        env = {"mail_from": envelope.mail_from,
               "rcpt_tos": envelope.rcpt_tos,
               "session": session.robot_session}
        with open(base + ".tmp", "wb") as f:
            f.write(envelope.original_content)
        with open(base + ".env", "w") as f:
            json.dump(env, f)
        os.rename(base + ".tmp", base + ".eml")
        return "250 2.0.0 Ok: queued as %d" % n


class Counted(SMTP):
    def connection_made(self, transport):
        super().connection_made(transport)
        self.session.robot_session = next(sessions)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--starttls", nargs=2, metavar=("CERT", "KEY"))
    ap.add_argument("--smtps", nargs=2, metavar=("CERT", "KEY"))
    ap.add_argument("--auth")
    ap.add_argument("--delay", type=int, default=0)
    ap.add_argument("--once", action="store_true")
    a = ap.parse_args()

    tls = None
    pem = a.starttls or a.smtps
    if pem:
        tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls.load_cert_chain(pem[0], pem[1])
    kw = dict(hostname="robot-test.example", decode_data=False,
              ident="robot test smtpd")
    if a.starttls:
        kw.update(tls_context=tls, require_starttls=True)
    if a.auth:
        user, password = a.auth.split(":", 1)

        def check(server, session, envelope, mechanism, auth_data):
            ok = (isinstance(auth_data, LoginPassword) and
                  auth_data.login == user.encode() and
                  auth_data.password == password.encode())
            return AuthResult(success=ok, handled=False)
        kw.update(authenticator=check, auth_required=True,
                  auth_require_tls=not a.smtps)
        if a.smtps:
            kw.update(auth_require_tls=False)
    handler = Handler(a.dir, a.delay, a.once)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    server = loop.run_until_complete(loop.create_server(
        lambda: Counted(handler, loop=loop, **kw), sock=sock,
        ssl=tls if a.smtps else None))
    loop.add_signal_handler(signal.SIGTERM, loop.stop)
    with open(a.port_file + ".tmp", "w") as f:
        f.write("%d\n" % sock.getsockname()[1])
    os.rename(a.port_file + ".tmp", a.port_file)
    try:
        loop.run_forever()
    finally:
        server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
