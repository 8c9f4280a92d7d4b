#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""badsmtp.py: a misbehaving SMTP server for `make torture` (asyncio, no
TLS), on a free 127.0.0.1 port.

    badsmtp.py --port-file F --log L [--fault MODE] [--once]

It writes its port to F.  Each message whose end of DATA it read is
logged to L as "received MESSAGE-ID", and, when it answered 250 to it,
"accepted MESSAGE-ID" (written and flushed before the 250 goes out, so a
message robot may have seen accepted is always in the log).  RCPT lines
are logged as "rcpt MESSAGE-FROM ADDRESS CODE".

MODE is the fault (default none):
  greet421  mail451 mail550 rcpt451 rcpt550  data451 data554
  dot451 dot554            the reply at that step
  rcpt-some                550 for addresses starting "bad", 250 others
  rcpt-some451             451 for addresses starting "later", 250 others
  drop-data                closes the connection in the middle of DATA
  drop-dot                 reads the final dot, closes without a reply
  silent                   accepts the connection, never says a word
  silent-dot               never answers the final dot
  garbage                  a greeting that is not SMTP
  garbage-mail             a reply to MAIL that is not SMTP
  huge                     a 1 MB reply line to EHLO
--once: the fault happens on the first connection only; later ones are
served well.  Stop it with SIGTERM.
"""
import argparse
import asyncio
import os
import re
import signal
import sys

BIG = 1 << 20


class Server:
    def __init__(self, log, fault, once):
        self.log = open(log, "a", buffering=1)
        self.fault_mode = fault
        self.once = once
        self.conns = 0

    def note(self, line):
        self.log.write(line + "\n")
        self.log.flush()
        os.fsync(self.log.fileno())

    async def session(self, reader, writer):
        self.conns += 1
        fault = self.fault_mode
        if self.once and self.conns > 1:
            fault = "none"

        async def say(text):
            writer.write(text.encode() + b"\r\n")
            await writer.drain()

        try:
            if fault == "silent":
                await asyncio.sleep(3600)
                return
            if fault == "greet421":
                await say("421 4.3.2 too busy, go away")
                return
            if fault == "garbage":
                await say("hello there, I am not a mail server")
                await asyncio.sleep(1)
                return
            await say("220 badsmtp ESMTP")
            rcpts = []
            while True:
                line = await reader.readline()
                if not line:
                    return
                cmd = line.decode("latin-1").strip()
                verb = cmd[:4].upper()
                if verb in ("EHLO", "HELO"):
                    if fault == "huge":
                        await say("250-" + "x" * BIG)
                    await say("250-badsmtp\r\n250-PIPELINING\r\n250 8BITMIME")
                elif verb == "MAIL":
                    rcpts = []
                    if fault == "mail451":
                        await say("451 4.3.0 MAIL: try again later")
                    elif fault == "mail550":
                        await say("550 5.7.1 MAIL: sender rejected")
                    elif fault == "garbage-mail":
                        await say("ok maybe, who knows")
                    else:
                        await say("250 2.1.0 Ok")
                elif verb == "RCPT":
                    m = re.search(r"<([^>]*)>", cmd)
                    addr = m.group(1) if m else ""
                    code = "250 2.1.5 Ok"
                    if fault == "rcpt451":
                        code = "451 4.7.1 RCPT: try again later"
                    elif fault == "rcpt550":
                        code = "550 5.1.1 RCPT: no such user"
                    elif fault == "rcpt-some" and addr.startswith("bad"):
                        code = "550 5.1.1 RCPT: no such user"
                    elif fault == "rcpt-some451" and addr.startswith("later"):
                        code = "451 4.7.1 RCPT: try again later"
                    if code.startswith("250"):
                        rcpts.append(addr)
                    self.note("rcpt %s %s" % (addr, code[:3]))
                    await say(code)
                elif verb == "DATA":
                    if fault == "data451":
                        await say("451 4.3.0 DATA: try again later")
                        continue
                    if fault == "data554":
                        await say("554 5.7.1 DATA: no thanks")
                        continue
                    if not rcpts:
                        await say("503 5.5.1 no valid recipients")
                        continue
                    await say("354 go ahead")
                    data = b""
                    while True:
                        chunk = await reader.readline()
                        if not chunk:
                            return
                        if fault == "drop-data" and len(data) > 100:
                            writer.transport.abort()
                            return
                        if chunk == b".\r\n":
                            break
                        data += chunk
                    m = re.search(rb"^Message-ID:\s*(<[^>]*>)", data,
                                  re.M | re.I)
                    mid = m.group(1).decode() if m else "(none)"
                    self.note("received %s %s" % (mid, ",".join(rcpts)))
                    if fault == "drop-dot":
                        writer.transport.abort()
                        return
                    if fault == "silent-dot":
                        await asyncio.sleep(3600)
                        return
                    if fault == "dot451":
                        await say("451 4.3.0 queue full, try again")
                    elif fault == "dot554":
                        await say("554 5.7.1 message refused")
                    else:
                        self.note("accepted %s %s" % (mid, ",".join(rcpts)))
                        await say("250 2.0.0 Ok: queued")
                elif verb == "RSET":
                    rcpts = []
                    await say("250 2.0.0 Ok")
                elif verb == "NOOP":
                    await say("250 2.0.0 Ok")
                elif verb == "QUIT":
                    await say("221 2.0.0 Bye")
                    return
                else:
                    await say("502 5.5.2 what?")
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            try:
                writer.close()
            except Exception:
                pass


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--fault", default="none")
    ap.add_argument("--once", action="store_true")
    a = ap.parse_args()
    srv = Server(a.log, a.fault, a.once)
    server = await asyncio.start_server(srv.session, "127.0.0.1", 0,
                                        limit=4 * BIG)
    port = server.sockets[0].getsockname()[1]
    tmp = a.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.rename(tmp, a.port_file)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    async with server:
        await stop.wait()


if __name__ == "__main__":
    asyncio.run(main())
    sys.exit(0)
