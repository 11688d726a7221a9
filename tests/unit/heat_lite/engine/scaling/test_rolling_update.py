"""The batches of a rolling change (Heat's scaling/rolling_update.py semantics)."""

import itertools

import pytest

from heat_lite.engine.scaling import rolling_update


@pytest.mark.parametrize(
    "targ, curr, size, min_in, expected",
    [
        (3, 3, 1, 0, [(3, 1), (3, 1), (3, 1)]),
        (4, 4, 2, 1, [(4, 2), (4, 2)]),
        (3, 0, 2, 0, [(2, 2), (3, 1)]),
        # min_in_service above what the batch leaves: the group grows during the batch
        (2, 2, 2, 2, [(4, 2), (4, 2), (2, 0)]),
        (2, 2, 5, 0, [(2, 2)]),
    ],
)
def test_get_batches(targ, curr, size, min_in, expected):
    assert list(rolling_update.get_batches(targ, curr, size, min_in)) == expected


def test_member_definitions_first_old_members_replaced_first_and_new_ones_added():
    old = [("2", "old"), ("1", "old"), ("0", "old")]
    new_ids = iter(["3"])
    result = list(
        rolling_update.member_definitions(
            old, lambda name: "new-" + name, 4, 2, lambda: next(new_ids)
        )
    )
    # 1 new member + 1 replacement (the first in the list)
    assert result == [("2", "new-2"), ("1", "old"), ("0", "old"), ("3", "new-3")]


def test_member_definitions_unchanged_members_do_not_use_the_budget():
    old = [("1", "new-1"), ("0", "old")]
    result = list(
        rolling_update.member_definitions(
            old, lambda name: "new-" + name, 2, 1, lambda: next(itertools.count())
        )
    )
    assert result == [("1", "new-1"), ("0", "new-0")]
