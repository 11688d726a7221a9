import gc

from heat_lite.cmd import common


def test_services_freeze_their_start_up_objects_and_collect_less_often():
    before = gc.get_threshold()
    try:
        common.tune_gc()
        assert gc.get_threshold() == common.GC_THRESHOLDS
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
