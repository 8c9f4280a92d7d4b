#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""tests/torture/lore.py: the archive and the stranger of the hostile
follow-up family (tests/torture/hostile.py), on 127.0.0.1.

    lore.py archive --port-file F --log L --dir D --away URL
    lore.py listen --port-file F --log L

archive: a public-inbox archive as robot asks it (GET /PREFIX/<id>/raw):
the file D/<id>, as an mbox, is the answer (200), no file is a 404; an
id that starts with "away" is answered with a 302 to URL (another
server), one that starts with "hop" with a 302 to this server's
/all/<id without "hop">/raw.  A search (?q=QUERY, as robot POSTs it) is
answered with the file D/q=WORD whose WORD the query holds, else a 404.
Every request is logged (METHOD PATH).

listen: a server robot must never reach: it logs every connection it
accepts ("connection") and closes it.

Both write their port to F once they listen, and run until killed.
"""
import argparse
import http.server
import os
import socket
import urllib.parse


def write_port(path, port):
    with open(path + ".tmp", "w") as f:
        f.write(str(port))
    os.rename(path + ".tmp", path)


def archive(a):
    class H(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def answer(self, status, body=b"", location=None):
            self.send_response(status)
            if location:
                self.send_header("Location", location)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            with open(a.log, "a") as f:
                f.write("%s %s\n" % (self.command, self.path))
            if "?q=" in self.path:
                query = urllib.parse.unquote_plus(self.path)
                for f in sorted(os.listdir(a.dir)):
                    if f.startswith("q=") and f[2:] in query:
                        with open(os.path.join(a.dir, f), "rb") as fh:
                            return self.answer(200, fh.read())
                return self.answer(404)
            parts = self.path.split("/")
            if len(parts) < 4 or parts[-1] != "raw":
                return self.answer(404)
            mid = urllib.parse.unquote(parts[-2])
            if mid.startswith("away"):
                return self.answer(302, location=a.away + self.path)
            if mid.startswith("hop"):
                return self.answer(302, location="http://127.0.0.1:%d/all/"
                                   "%s/raw" % (self.server.server_port,
                                               parts[-2][3:]))
            path = os.path.join(a.dir, mid.replace("/", "_"))
            if not os.path.isfile(path):
                return self.answer(404)
            with open(path, "rb") as f:
                self.answer(200, f.read())

        do_POST = do_GET

    s = http.server.HTTPServer(("127.0.0.1", 0), H)
    write_port(a.port_file, s.server_port)
    s.serve_forever()


def listen(a):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    write_port(a.port_file, s.getsockname()[1])
    while True:
        c, peer = s.accept()
        with open(a.log, "a") as f:
            f.write("connection from %s:%d\n" % peer)
        c.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=("archive", "listen"))
    p.add_argument("--port-file", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--dir")
    p.add_argument("--away")
    a = p.parse_args()
    (archive if a.mode == "archive" else listen)(a)


if __name__ == "__main__":
    main()
