"""A TCP relay in front of the real PostgreSQL that can lose one answer.

    with relay.Relay() as proxy:
        url = proxy.url(database_url)        # the same database, through the relay
        proxy.lose_next_answer()             # the next query runs (and commits), but the
                                             # connection drops before its answer arrives

A commit whose answer never came back: what a server restart, a failover or a cut cable
does to a statement in flight. The server has done the work; its client sees
"server closed the connection unexpectedly".
"""

import socket
import threading
import urllib.parse

PG = ("127.0.0.1", 5432)


class Relay:
    def __init__(self, target=PG):
        self._target = target
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._guard = threading.Lock()
        self._armed = False  # the next query sent through the relay loses its answer
        self._sockets = []
        self.lost = threading.Event()  # an answer was lost
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, database_url):
        """``database_url`` (127.0.0.1:5432) through the relay."""
        parts = urllib.parse.urlsplit(database_url)
        netloc = parts.netloc.replace(":%d" % self._target[1], "").split("@")
        netloc[-1] = "127.0.0.1:%d" % self.port
        return urllib.parse.urlunsplit(parts._replace(netloc="@".join(netloc)))

    def lose_next_answer(self):
        self.lost.clear()
        with self._guard:
            self._armed = True

    def _accept(self):
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return  # closed
            server = socket.create_connection(self._target)
            with self._guard:
                self._sockets += [client, server]
            pending = threading.Event()  # this connection's query is to lose its answer
            threading.Thread(target=self._up, args=(client, server, pending), daemon=True).start()
            threading.Thread(target=self._down, args=(server, client, pending), daemon=True).start()

    def _up(self, client, server, pending):
        """Client to server; the first chunk sent once armed is the query that loses
        its answer."""
        while chunk := _recv(client):
            with self._guard:
                if self._armed:
                    self._armed = False
                    pending.set()
            if not _send(server, chunk):
                break
        _close(client, server)

    def _down(self, server, client, pending):
        while chunk := _recv(server):
            if pending.is_set():
                # the server answered (it has committed): the client never hears it
                _close(client, server)
                self.lost.set()
                return
            if not _send(client, chunk):
                break
        _close(client, server)

    def close(self):
        self._listener.close()
        with self._guard:
            _close(*self._sockets)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _recv(sock):
    try:
        return sock.recv(65536)
    except OSError:
        return b""


def _send(sock, data):
    try:
        sock.sendall(data)
    except OSError:
        return False
    return True


def _close(*socks):
    for sock in socks:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        sock.close()
