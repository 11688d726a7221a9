import pytest

from tests.unit.heat_lite.engine.convergence import simulator


@pytest.fixture
def sim(tmp_path, monkeypatch):
    """A Simulator on its own SQLite file (simulator.py)."""
    sim = simulator.Simulator(tmp_path, monkeypatch)
    yield sim
    sim.close()
