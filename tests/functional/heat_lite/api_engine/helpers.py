"""Helpers for the API-with-real-engine tests: serve the app over HTTP, create a stack.

with serve(app) as endpoint:          # 'http://127.0.0.1:<port>/v1/admin'
    ...
url = create_stack(api, {'stack_name': 's1', 'template': {...}})
"""

import contextlib
import threading
import time
import wsgiref.simple_server


class _QuietHandler(wsgiref.simple_server.WSGIRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serve(app):
    """Serve ``app`` on 127.0.0.1:<free port>; yields the Heat endpoint for project admin."""
    server = wsgiref.simple_server.make_server("127.0.0.1", 0, app, handler_class=_QuietHandler)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield "http://127.0.0.1:%d/v1/admin" % server.server_port
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


def wait_stack(api, url, in_progress, headers=None, timeout=30):
    """Poll GET ``url`` while the stack's status is ``in_progress``; returns the stack."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        stack = api.get(url, headers=headers).json["stack"]
        if stack["stack_status"] != in_progress:
            return stack
        time.sleep(0.05)
    raise AssertionError("stack %s still %s after %ss" % (url, in_progress, timeout))


def create_stack(api, body, timeout=30):
    """POST /stacks, then poll until the stack is CREATE_COMPLETE; returns its URL."""
    location = api.post_json("/v1/admin/stacks", body).location
    stack = wait_stack(api, location, "CREATE_IN_PROGRESS", timeout=timeout)
    assert stack["stack_status"] == "CREATE_COMPLETE", stack["stack_status_reason"]
    return location
