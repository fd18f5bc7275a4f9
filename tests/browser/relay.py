"""A phone's network, which a test can cut: a TCP relay in front of the served table.

The browser's offline switch leaves a stream that is already open alone, so a dropped
connection is played here: :meth:`Relay.cut` closes every connection through the relay and
turns new ones away until :meth:`Relay.mend`, as a phone losing its Wi-Fi does.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from urllib.parse import urlsplit, urlunsplit


class Relay:
    """Listens on a free loopback port and passes each connection on to ``target``."""

    def __init__(self, target: str) -> None:
        parts = urlsplit(target)
        self._to = (parts.hostname or "127.0.0.1", parts.port or 80)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        self._up = True
        threading.Thread(target=self._accept, daemon=True, name="relay").start()

    def url(self, link: str) -> str:
        """``link`` through the relay."""
        parts = urlsplit(link)
        return urlunsplit(parts._replace(netloc=f"127.0.0.1:{self.port}"))

    def cut(self) -> None:
        with self._lock:
            self._up = False
            for sock in self._open:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self._open.clear()

    def mend(self) -> None:
        with self._lock:
            self._up = True

    def close(self) -> None:
        self.cut()
        self._listener.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                if not self._up:
                    client.close()
                    continue
                try:
                    server = socket.create_connection(self._to)
                except OSError:
                    client.close()
                    continue
                self._open += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=_pump, args=(source, sink), daemon=True).start()


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while chunk := source.recv(65536):
            sink.sendall(chunk)
    except OSError:
        pass
    finally:
        for sock in (source, sink):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
