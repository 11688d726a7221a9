"""Magnum's error body: every 4xx/5xx becomes ``{"errors": [{...}]}``.

``title`` is the message cut at its first ``.``, ``detail`` the whole message, ``code``
``client``/``server`` from wsme's faultcode ("" when the inner body was not JSON).
A body that already is ``{"errors": [...]}`` (the microversion 406) passes unchanged.
"""

import json


def _errors(body, status):
    try:
        err = json.loads(body.decode("utf-8"))
    except ValueError:
        err = {}
    if not isinstance(err, dict):
        err = {}
    if "errors" in err:
        return err["errors"]
    if "title" in err and "description" in err:
        title, detail = err["title"], err["description"]
    elif "faultstring" in err:
        title, detail = err["faultstring"].split(".", 1)[0], err["faultstring"]
    else:
        title = detail = ""
    code = err["faultcode"].lower() if "faultcode" in err else ""
    return [
        {
            "request_id": "",
            "code": code,
            "status": status,
            "title": title,
            "detail": detail,
            "links": [],
        }
    ]


class ParsableErrorMiddleware:
    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        state = {}

        def replacement_start_response(status, headers, exc_info=None):
            state["status_code"] = int(status.split(" ")[0])
            state["status"] = status
            state["headers"] = headers
            if state["status_code"] >= 400:
                return lambda data: None  # body replaced below
            return start_response(status, headers, exc_info)

        app_iter = self.app(environ, replacement_start_response)
        if state.get("status_code", 200) < 400:
            return app_iter
        try:
            body = b"".join(app_iter)
        finally:
            if hasattr(app_iter, "close"):
                app_iter.close()
        payload = json.dumps({"errors": _errors(body, state["status_code"])}).encode()
        headers = [
            (k, v)
            for k, v in state["headers"]
            if k.lower() not in ("content-length", "content-type")
        ]
        headers += [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))]
        start_response(state["status"], headers)
        return [payload]
