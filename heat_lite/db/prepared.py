"""The statements a traversal runs thousands of times, as PostgreSQL prepared statements.

A worker's step is four statements (load the resource, two state writes, the sync point
report), the same four every time. Through SQLAlchemy each costs the worker about 90 us
of CPU besides the driver's own work (execution context, result metadata, row objects)
and PostgreSQL a parse and a plan: for the resource-with-stack join or the
update-with-event CTE, planning is most of PostgreSQL's CPU for the statement
(bench/db_statements.py prints both ways).

``Prepared(stmt)`` compiles a Core statement once for the dialect, PREPAREs it once per
pooled connection (the connection record's ``info`` remembers which are), and runs
``EXECUTE`` on the pool's DBAPI connection with its parameters processed by their
types as SQLAlchemy would. ``IN`` over an expanding parameter becomes ``= ANY(array)``
(one plan for any length). Errors are SQLAlchemy's (``sa.exc.IntegrityError`` ...), and
a connection lost meanwhile is invalidated with the pool's older ones, as an ordinary
execution does: the pool's new connections prepare the statements again (so does a
session that lost them otherwise). Retrying is the caller's (db.retry).

    LOAD = prepared.Prepared(sa.select(T_RSRC).where(T_RSRC.c.id == sa.bindparam("id")))
    rows, rowcount = LOAD.execute(engine, {"id": 7})      # rows: tuples (named=True: named)

The psycopg2 dialect only; elsewhere (SQLite) session.run_prepared runs the statement the
ordinary way.
"""

import collections
import itertools
import re

import sqlalchemy as sa

_SERIAL = itertools.count(1)
_BIND = re.compile(r"%\((\w+)\)s")
_EXPANDING = re.compile(r"IN \(__\[POSTCOMPILE_(\w+)\]\)")
_KNOWN = "heat_lite_prepared"
_NOT_PREPARED = "26000"  # invalid_sql_statement_name: no such prepared statement

# a statement compiled for a dialect: its PREPARE and EXECUTE sql, its parameters' names in
# EXECUTE's order with their processors and default values, its columns' processors
_Compiled = collections.namedtuple(
    "_Compiled", "dialect prepare execute order processors defaults results"
)


class _Call:
    """A column's callable default, called for each execution."""

    def __init__(self, default):
        self.default = default


class Prepared:
    """``named``: a select's rows are named tuples (``row.status``), as SQLAlchemy's are."""

    def __init__(self, stmt, named=False):
        self.stmt = stmt
        self.name = "heat_lite_%d" % next(_SERIAL)
        self._row = None
        if named:
            self._row = collections.namedtuple("Row", stmt.selected_columns.keys())._make
        self._for = None  # _Compiled

    def _compile(self, dialect):
        compiled = self.stmt.compile(dialect=dialect)
        binds = compiled.binds
        order = []

        def number(name):
            if name not in order:
                order.append(name)
            return "$%d" % (order.index(name) + 1)

        body = _EXPANDING.sub(lambda m: "= ANY(%s)" % number(m.group(1)), compiled.string)
        body = _BIND.sub(lambda m: number(m.group(1)), body).replace("%%", "%")
        types, processors = [], []
        for name in order:
            bind = binds[name]
            bind_type = bind.type
            if isinstance(bind_type, sa.types.NullType):
                types.append("unknown")
            else:
                sql_type = bind_type.compile(dialect=dialect)
                types.append(sql_type + "[]" if bind.expanding else sql_type)
            processor = bind_type.bind_processor(dialect)
            if processor is not None and bind.expanding:
                processor = _each(processor)
            processors.append(processor)
        # an INSERT's columns left out take their Python-side defaults, as an ordinary
        # execution gives them (compiled.params holds None for them)
        defaults = dict(compiled.params)
        for column in getattr(compiled, "insert_prefetch", ()):
            default = column.default
            if default is not None and default.is_scalar:
                defaults[column.key] = default.arg
            elif default is not None and default.is_callable:
                defaults[column.key] = _Call(default.arg)
        columns = self.stmt.selected_columns if isinstance(self.stmt, sa.sql.Select) else ()
        processed = ((i, c.type.result_processor(dialect, None)) for i, c in enumerate(columns))
        results = [(index, process) for index, process in processed if process is not None]
        prepare = "PREPARE %s (%s) AS %s" % (self.name, ", ".join(types), body)
        execute = "EXECUTE %s (%s)" % (self.name, ", ".join(["%s"] * len(order)))
        self._for = _Compiled(dialect, prepare, execute, order, processors, defaults, results)
        return self._for

    def _bound(self, dialect, params):
        """(PREPARE sql, EXECUTE sql, its values) of an execution with ``params``."""
        compiled = self._for
        if compiled is None or compiled.dialect is not dialect:
            compiled = self._compile(dialect)
        values = []
        for name, processor in zip(compiled.order, compiled.processors, strict=True):
            value = params[name] if name in params else compiled.defaults.get(name)
            if isinstance(value, _Call):
                value = value.default(None)  # SQLAlchemy's wrapped default: takes a context
            values.append(processor(value) if processor is not None else value)
        return compiled.prepare, compiled.execute, values

    def _rows(self, rows):
        results = self._for.results
        if rows and results:
            rows = [_processed(row, results) for row in rows]
        if rows and self._row is not None:
            rows = [self._row(row) for row in rows]
        return rows

    def execute(self, engine, params):
        """(rows or None, rowcount) of one execution on a connection of ``engine``'s pool."""
        return execute_together(engine, [(self, params)])


def execute_together(engine, statements):
    """Run ``[(Prepared, params), ...]`` in one round trip and one transaction (one
    commit: PostgreSQL runs the statements of one simple query as one transaction, all or
    nothing); (rows or None, rowcount) of the last."""
    dialect = engine.dialect
    bound = [stmt._bound(dialect, params) for stmt, params in statements]
    sql = "; ".join(execute for _, execute, _ in bound)
    values = [value for _, _, stmt_values in bound for value in stmt_values]
    conn = engine.raw_connection()
    try:
        try:
            rows, rowcount = _run(conn, statements, bound, sql, values)
        except dialect.loaded_dbapi.Error as exc:
            if getattr(exc, "pgcode", None) != _NOT_PREPARED:
                raise
            # the session lost them (DISCARD ALL, a pooler's other backend): prepare again
            conn.info.pop(_KNOWN, None)
            rows, rowcount = _run(conn, statements, bound, sql, values)
    except dialect.loaded_dbapi.Error as exc:
        lost = dialect.is_disconnect(exc, conn, None)
        if lost:
            # every connection opened before it is gone too (a restarted server, a
            # failover): each is replaced at its next checkout, as an ordinary execution's
            # disconnect does; a new connection's record holds no prepared statements
            engine.pool._invalidate(conn, exc, _checkin=False)
            conn.invalidate(exc)
        raise sa.exc.DBAPIError.instance(
            sql,
            values,
            exc,
            dialect.loaded_dbapi.Error,
            connection_invalidated=lost,
            dialect=dialect,
        ) from exc
    finally:
        conn.close()
    return statements[-1][0]._rows(rows), rowcount


def _run(conn, statements, bound, sql, values):
    """PREPARE what the connection has not prepared yet, then send the EXECUTEs."""
    cursor = conn.cursor()
    try:
        known = conn.info.get(_KNOWN)
        if known is None:
            known = conn.info[_KNOWN] = set()
        for (stmt, _), (prepare, _, _) in zip(statements, bound, strict=True):
            if stmt.name not in known:
                cursor.execute(prepare)
                known.add(stmt.name)
        cursor.execute(sql, values)
        rows = cursor.fetchall() if cursor.description is not None else None
        return rows, cursor.rowcount
    finally:
        cursor.close()


def _processed(row, results):
    row = list(row)
    for index, process in results:
        row[index] = process(row[index])
    return tuple(row)


def _each(processor):
    return lambda values: [processor(value) for value in values]
