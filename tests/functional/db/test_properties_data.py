"""resource_properties_data rows (heat_lite.db.api): a resource's properties
shown by its events, its cached attributes, and no row left that nothing refers to."""

import pytest
import sqlalchemy as sa

from heat_lite.db import api as db_api
from heat_lite.db import models

T_PROPS = models.ResourcePropertiesData.__table__


pytestmark = pytest.mark.functional


@pytest.fixture(autouse=True)
def database(db):
    template_id = db_api.raw_template_create({"heat_template_version": "2016-10-14"}, {})
    db_api.stack_create(
        {
            "id": "s1",
            "name": "s1",
            "raw_template_id": template_id,
            "tenant": "p1",
            "disable_rollback": True,
        }
    )
    yield


def _props_rows():
    with db_api.transaction() as conn:
        return sorted((r.data for r in conn.execute(sa.select(T_PROPS.c.data))), key=repr)


def _resource(name="r"):
    (rsrc_id,) = db_api.resource_create_many(
        [{"name": name, "stack_id": "s1", "action": "INIT", "status": "COMPLETE"}]
    )
    return rsrc_id


def _event(status):
    return {
        "stack_id": "s1",
        "resource_name": "r",
        "resource_action": "CREATE",
        "resource_status": status,
        "resource_status_reason": "state changed",
        "resource_type": "OS::Heat::TestResource",
    }


def test_events_refer_to_the_properties_of_their_time():
    rsrc_id = _resource()
    assert db_api.resource_update_and_event(
        rsrc_id, {"action": "CREATE", "status": "IN_PROGRESS"}, 0, None,
        _event("IN_PROGRESS"), props_data={"value": "y"},
    )  # fmt: skip
    assert db_api.resource_update_and_event(
        rsrc_id, {"status": "COMPLETE"}, 1, None, _event("COMPLETE")
    )
    events = db_api.event_get_all_by_stacks(["s1"])
    assert [db_api.resource_properties_data_get(e.rsrc_prop_data_id) for e in events] == [
        {"value": "y"},
        {"value": "y"},
    ]
    # a write that loses its compare-and-swap stores nothing
    assert not db_api.resource_update_and_event(
        rsrc_id, {"status": "FAILED"}, 0, None, _event("FAILED"), props_data={"value": "z"}
    )
    assert _props_rows() == [{"value": "y"}]


def test_replaced_attribute_values_leave_no_row():
    rsrc_id = _resource()
    db_api.resource_attr_data_set(rsrc_id, {"a": 1})
    db_api.resource_attr_data_set(rsrc_id, {"a": 2})
    assert _props_rows() == [{"a": 2}]
    db_api.resource_attr_data_set(rsrc_id, None)
    assert _props_rows() == []


def test_attribute_values_of_a_gone_resource_leave_no_row():
    rsrc_id = _resource()
    db_api.resource_attr_data_set(rsrc_id, {"a": 1})
    db_api.resource_delete(rsrc_id)
    db_api.resource_attr_data_set(rsrc_id, {"a": 2})
    assert _props_rows() == [{"a": 1}]  # the deleted resource's own row is not ours to purge


def test_purges_keep_only_rows_something_refers_to():
    gone, kept = _resource("gone"), _resource("kept")
    db_api.resource_update_and_event(
        gone, {"action": "DELETE", "status": "COMPLETE"}, 0, None, _event("COMPLETE"),
        props_data={"value": "shown"},
    )  # fmt: skip
    db_api.resource_update_and_event(
        kept, {"action": "CREATE", "status": "COMPLETE"}, 0, None, None, props_data={"k": 1}
    )
    db_api.resource_attr_data_set(gone, {"attr": 1})
    db_api.resource_purge_deleted("s1")
    # the purged resource's attribute cache goes; its properties stay for its event
    assert _props_rows() == [{"k": 1}, {"value": "shown"}]
    db_api.event_purge_oldest("s1", 1)
    assert _props_rows() == [{"k": 1}]
