"""magnum-lite-all's files: the clouds.yaml merge and the generated configs."""

import pathlib

import pytest
import yaml

from magnum_lite.cmd import all_setup

pytestmark = pytest.mark.unit


def test_clouds_yaml_keeps_other_clouds_and_replaces_its_own(tmp_path):
    path = tmp_path / "openstack" / "clouds.yaml"
    path.parent.mkdir()
    path.write_text(
        yaml.safe_dump(
            {
                "clouds": {"other": {"auth": {"auth_url": "http://x"}}, "magnum-lite": {"old": 1}},
                "extra": True,
            }  # fmt: skip
        )
    )
    all_setup.write_clouds_yaml({"auth": {"auth_url": "http://new"}}, path)
    data = yaml.safe_load(path.read_text())
    assert data["clouds"]["other"] == {"auth": {"auth_url": "http://x"}}
    assert data["clouds"]["magnum-lite"] == {"auth": {"auth_url": "http://new"}}
    assert data["extra"] is True
    assert path.stat().st_mode & 0o777 == 0o600


def test_clouds_yaml_created_when_missing(tmp_path):
    path = all_setup.write_clouds_yaml({"a": 1}, tmp_path / "new" / "clouds.yaml")
    assert yaml.safe_load(path.read_text()) == {"clouds": {"magnum-lite": {"a": 1}}}


@pytest.mark.parametrize("text", ["- a list\n", "clouds: [1, 2]\n"])
def test_clouds_yaml_not_a_mapping_is_left_alone(tmp_path, text):
    path = tmp_path / "clouds.yaml"
    path.write_text(text)
    with pytest.raises(ValueError):
        all_setup.write_clouds_yaml({"a": 1}, path)
    assert path.read_text() == text


def test_clouds_yaml_path_follows_xdg_config_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert all_setup.clouds_yaml_path() == tmp_path / "openstack" / "clouds.yaml"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert all_setup.clouds_yaml_path() == tmp_path / ".config" / "openstack" / "clouds.yaml"


def test_configs_name_the_ports_and_the_state_dir(tmp_path):
    layout = all_setup.Layout(pathlib.Path(tmp_path), all_setup.Ports(1, 2, 3))
    layout.write_configs()
    simcloud = layout.conf("simcloud").read_text()
    assert "bind_port = 1\n" in simcloud
    assert "orchestration_endpoint = http://127.0.0.1:2/v1/%(project_id)s\n" in simcloud
    assert "container_infra_endpoint = http://127.0.0.1:3/v1\n" in simcloud
    magnum = layout.conf("magnum").read_text()
    assert "connection = sqlite:///%s/magnum.sqlite\n" % tmp_path in magnum
    assert "url = http://127.0.0.1:2/v1/%(project_id)s\n" in magnum
    assert "auth_uri = http://127.0.0.1:1/identity\n" in layout.conf("heat").read_text()
    assert layout.logs.is_dir()
