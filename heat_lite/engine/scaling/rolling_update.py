"""Batched changes of a group's members (Heat's scaling/rolling_update.py and the
member_definitions of scaling/template.py).

A group of ``curr`` members going to ``targ`` members with a new definition is changed
in batches of at most ``batch_size`` new-definition members, keeping ``min_in_service``:

    list(get_batches(targ=3, curr=3, batch_size=1, min_in_service=0))
    # [(3, 1), (3, 1), (3, 1)]  -- (capacity of the batch, members with the new definition)
"""


def needs_update(targ_capacity, curr_capacity, num_up_to_date):
    """Whether more batches are needed."""
    return not (num_up_to_date >= curr_capacity == targ_capacity)


def next_batch(targ_capacity, curr_capacity, num_up_to_date, batch_size, min_in_service):
    """(new capacity, how many members may get the new definition) of the next batch."""
    efft_min_sz = min(min_in_service, targ_capacity, curr_capacity)
    efft_bat_sz = min(batch_size, max(targ_capacity - num_up_to_date, 0))
    new_capacity = efft_bat_sz + max(min(curr_capacity, targ_capacity - efft_bat_sz), efft_min_sz)
    return new_capacity, efft_bat_sz


def get_batches(targ_cap, curr_cap, batch_size, min_in_service):
    """Every batch of a rolling change, as (capacity, new-definition members)."""
    updated = 0
    while needs_update(targ_cap, curr_cap, updated):
        new_cap, total_new = next_batch(targ_cap, curr_cap, updated, batch_size, min_in_service)
        yield new_cap, total_new
        updated += total_new - max(new_cap - max(curr_cap, targ_cap), 0)
        curr_cap = new_cap


def member_definitions(old_resources, new_definition, num_resources, num_new, get_new_id):
    """(name, definition) of each member after the next batch.

    ``old_resources``: (name, definition) of the existing members, the first to be
    replaced (or removed) first; ``new_definition(name)``: a member's new definition.
    Members are added or dropped to make ``num_resources``; ``num_new`` (new members
    included) get the new definition.
    """
    old_resources = old_resources[-num_resources:] if num_resources else []
    num_create = num_resources - len(old_resources)
    num_replace = num_new - num_create
    for i in range(num_resources):
        if i < len(old_resources):
            old_name, old_definition = old_resources[i]
            custom = new_definition(old_name)
            if old_definition != custom and num_replace > 0:
                num_replace -= 1
                yield old_name, custom
            else:
                yield old_name, old_definition
        else:
            new_name = get_new_id()
            yield new_name, new_definition(new_name)
