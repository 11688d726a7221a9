"""One line for each start-up failure an operator can fix, instead of a traceback.

    explain(exc, CONF) -> "RabbitMQ vhost 'x' does not exist: ..." or None (unknown: re-raise)

Each rule recognises the failure by the exception's class and text (the drivers' own
words: psycopg2, sqlite3, amqp, the socket layer) and says what to do about it.
"""

import errno
import re

from sqlalchemy.engine import make_url


def explain(exc, conf):
    for rule in (_port_in_use, _vhost_missing, _database_missing, _schema_missing):
        message = rule(exc, conf)
        if message:
            return message
    return None


def _chain(exc):
    while exc is not None:
        yield exc
        exc = exc.__cause__ or exc.__context__


def _port_in_use(exc, conf):
    for err in _chain(exc):
        if isinstance(err, OSError) and err.errno == errno.EADDRINUSE:
            api = conf.heat_api
            return (
                "%s:%s is already in use (another heat-lite-api or heat-lite-all?); stop it or "
                "set [heat_api] bind_port" % (api.bind_host, api.bind_port)
            )
    return None


def _vhost_missing(exc, conf):
    match = re.search(r"vhost (\S+) not found", str(exc))
    if not match:
        return None
    vhost = match.group(1)
    return (
        "RabbitMQ vhost '%s' does not exist (transport_url); create it with: rabbitmqctl "
        "add_vhost %s && rabbitmqctl set_permissions -p %s guest '.*' '.*' '.*'"
        % (vhost, vhost, vhost)
    )


def _database_missing(exc, conf):
    match = re.search(r'database "([^"]+)" does not exist', str(exc))
    if not match:
        return None
    url = make_url(conf.database.connection)
    return (
        "PostgreSQL database '%s' does not exist ([database] connection); create it with: "
        "createdb -h %s -U %s %s && heat-lite-manage --config-file <heat.conf> db_sync"
        % (match.group(1), url.host or "127.0.0.1", url.username or "postgres", match.group(1))
    )


def _schema_missing(exc, conf):
    text = str(exc)
    if "no such table" in text or re.search(r"relation \"\w+\" does not exist", text):
        return (
            "the heat database has no tables ([database] connection = %s); create them with: "
            "heat-lite-manage --config-file <heat.conf> db_sync"
            % make_url(conf.database.connection).render_as_string(hide_password=True)
        )
    return None
