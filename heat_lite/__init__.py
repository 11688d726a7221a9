"""heat-lite: OpenStack Heat's orchestration API and its convergence engine.

Processes (console scripts, heat_lite/cmd):

    heat-lite-api      the orchestration REST API (python-heatclient's), port 8004;
                       checks, then RPC to the engine
    heat-lite-engine   the stack lifecycle RPC server (topic ``engine``): creates,
                       updates, deletes and reads stacks, starts their traversals;
                       the convergence watchdog
    heat-lite-worker   a convergence worker (topic ``engine_worker``): runs one
                       resource's step of a traversal (check_resource); as many as wanted
    heat-lite-manage   the schema (alembic) and the purge of deleted stacks
    heat-lite-all      the three servers in one process (Heat's heat-all)

Packages:

    api/       the WSGI app: /v1 (stacks, resources, events, software configs ...)
    engine/    the engine: its RPC endpoints, the worker, the stack and resource core,
               templates and intrinsic functions, the resource plugins, the client
               plugins to the cloud's services
    rpc/       the RPC clients the API, the engine and the resources use, and the wire API
    db/        the database, organised by entity as heat/db is
    common/    context, exceptions, identifiers, formats; conf/ and policies/ below all

The API and the engine never import each other; each layer imports only downwards
(pyproject.toml's import-linter contracts).
"""
