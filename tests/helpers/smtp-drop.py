#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""
smtp-drop.py PORT-FILE: an SMTP server on a free 127.0.0.1 port (written
to PORT-FILE) that accepts every command, answers DATA with 354, reads one
line of the message and closes the connection: a drop in the middle of
DATA.  Stop it with SIGTERM (by PID).
"""
import socket, sys, os
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0)); s.listen(5)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1])); os.rename(sys.argv[1] + ".tmp", sys.argv[1])
while True:
    c, _ = s.accept()
    f = c.makefile("rb")
    c.sendall(b"220 drop ESMTP\r\n")
    while True:
        l = f.readline()
        if not l:
            break
        cmd = l[:4].upper()
        if cmd in (b"EHLO", b"HELO"):
            c.sendall(b"250-drop\r\n250 8BITMIME\r\n")
        elif cmd == b"DATA":
            c.sendall(b"354 go\r\n")
            f.readline()
            break
        elif cmd == b"QUIT":
            c.sendall(b"221 bye\r\n"); break
        else:
            c.sendall(b"250 ok\r\n")
    # the file holds the socket open: close both, or the client waits
    # for its reply timeout instead of seeing the drop
    f.close()
    c.close()
