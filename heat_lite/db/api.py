"""heat's database API: every function the engine, the API's helpers and the console
scripts call, as ``db_api.<entity>_<verb>`` (heat/db/api.py's names), re-exported from the
module of its entity:

    session.py        the engine, its pool, transaction() / autocommit()
    templates.py      raw_template_*          user_creds.py   user_creds_*
    stacks.py         stack_* (create, get, list, update, soft delete, tags)
    locks.py          stack_lock_* and the locks a transaction holds
    resources.py      resource_* rows and their compare-and-swap writes (ResourceWrite)
    resource_data.py  resource_data_*, resource_attr_data_*, resource_properties_data_*
    events.py         event_*                 sync_points.py  sync_point_*
    services.py       service_*               (snapshots.py, software.py, purge.py: their own)
    postgresql.py     the PostgreSQL versions of the functions a traversal runs most
    retry.py          @retry_on_db_error, on every function where it is defined

    db_api.configure('postgresql+psycopg2://postgres@127.0.0.1/heat')
    db_api.stack_get(stack_id)
    with db_api.transaction() as conn:
        ...

Core statements on the model tables; rows come back as SQLAlchemy ``Row`` objects
(attribute access). Compare-and-swap writes return whether a row matched.
"""

# the PostgreSQL versions register themselves with the functions they speed up
# (session.fast_path_of): imported here, where every process using the db gets them
from heat_lite.db import postgresql  # noqa: F401
from heat_lite.db.events import (
    event_count_all_by_stack,
    event_create,
    event_get_all_by_stacks,
    event_purge_oldest,
)
from heat_lite.db.locks import (
    stack_lock_get_all,
    stack_lock_release,
    stack_lock_set,
    stack_lock_steal,
    stack_lock_take,
)
from heat_lite.db.models import (
    T_CREDS,
    T_EVENT,
    T_FILES,
    T_INPUT,
    T_PROPS,
    T_RAW,
    T_RDATA,
    T_RSRC,
    T_SERVICE,
    T_STACK,
    T_STACK_LOCK,
    T_SYNC,
    T_TAG,
    utcnow,
)
from heat_lite.db.resource_data import (
    resource_attr_data_get,
    resource_attr_data_set,
    resource_data_delete,
    resource_data_get_all,
    resource_data_set,
    resource_properties_data_get,
)
from heat_lite.db.resources import (
    _RSRC_WITH_STACK,  # bench/db_statements.py
    ResourceWrite,
    resource_count_by_root,
    resource_create_many,
    resource_delete,
    resource_get_all_by_stack,
    resource_get_with_stack,
    resource_init_many,
    resource_locks_of_stacks_in_progress,
    resource_make_replacement,
    resource_physical_ids_recorded,
    resource_purge_deleted,
    resource_update,
    resource_update_and_event,
    resources_version,
)
from heat_lite.db.retry import is_transient_db_error, retry_on_db_error
from heat_lite.db.services import (
    service_create,
    service_delete,
    service_get_all,
    service_get_by_engine_id,
    service_get_by_id,
    service_update,
)
from heat_lite.db.session import (
    autocommit,
    configure,
    create_schema,
    dispose,
    generation,
    get_engine,
    stamp_id,
    transaction,
)
from heat_lite.db.stacks import (
    stack_count_all,
    stack_create,
    stack_deps_get,
    stack_get,
    stack_get_all,
    stack_get_all_in_progress,
    stack_get_by_name,
    stack_last_progress,
    stack_soft_delete,
    stack_tags_get,
    stack_tags_set,
    stack_update,
)
from heat_lite.db.sync_points import (
    sync_point_add_input,
    sync_point_create_many,
    sync_point_delete_all_by_stack_and_traversal,
    sync_point_get,
    sync_point_get_all_by_traversal,
    sync_point_inputs,
)
from heat_lite.db.templates import raw_template_create, raw_template_delete, raw_template_get
from heat_lite.db.user_creds import user_creds_create, user_creds_delete

__all__ = [
    "T_CREDS",
    "T_EVENT",
    "T_FILES",
    "T_INPUT",
    "T_PROPS",
    "T_RAW",
    "T_RDATA",
    "T_RSRC",
    "T_SERVICE",
    "T_STACK",
    "T_STACK_LOCK",
    "T_SYNC",
    "T_TAG",
    "_RSRC_WITH_STACK",
    "ResourceWrite",
    "autocommit",
    "configure",
    "create_schema",
    "dispose",
    "event_count_all_by_stack",
    "event_create",
    "event_get_all_by_stacks",
    "event_purge_oldest",
    "generation",
    "get_engine",
    "is_transient_db_error",
    "raw_template_create",
    "raw_template_delete",
    "raw_template_get",
    "resource_attr_data_get",
    "resource_attr_data_set",
    "resource_count_by_root",
    "resource_create_many",
    "resource_data_delete",
    "resource_data_get_all",
    "resource_data_set",
    "resource_delete",
    "resource_get_all_by_stack",
    "resource_get_with_stack",
    "resource_init_many",
    "resource_locks_of_stacks_in_progress",
    "resource_make_replacement",
    "resource_physical_ids_recorded",
    "resource_properties_data_get",
    "resource_purge_deleted",
    "resource_update",
    "resource_update_and_event",
    "resources_version",
    "retry_on_db_error",
    "service_create",
    "service_delete",
    "service_get_all",
    "service_get_by_engine_id",
    "service_get_by_id",
    "service_update",
    "stack_count_all",
    "stack_create",
    "stack_deps_get",
    "stack_get",
    "stack_get_all",
    "stack_get_all_in_progress",
    "stack_get_by_name",
    "stack_last_progress",
    "stack_lock_get_all",
    "stack_lock_release",
    "stack_lock_set",
    "stack_lock_steal",
    "stack_lock_take",
    "stack_soft_delete",
    "stack_tags_get",
    "stack_tags_set",
    "stack_update",
    "stamp_id",
    "sync_point_add_input",
    "sync_point_create_many",
    "sync_point_delete_all_by_stack_and_traversal",
    "sync_point_get",
    "sync_point_get_all_by_traversal",
    "sync_point_inputs",
    "transaction",
    "user_creds_create",
    "user_creds_delete",
    "utcnow",
]
