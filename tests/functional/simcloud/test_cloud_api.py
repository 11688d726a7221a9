"""Compute, image, network, volume and load-balancer APIs in process: the calls heat-lite's
resource plugins and magnum-lite's checks make, scoping and each service's error body."""

import pytest

from simcloud.identity import bootstrap

pytestmark = pytest.mark.functional

N = "/networking/v2.0"
C = "/compute/v2.1"


def _image_id(cloud, name="cirros-0.6.2"):
    return cloud.get("/image/v2/images?name=" + name, status=200).json["images"][0]["id"]


def _network(cloud, user="admin", cidr="10.0.0.0/24"):
    net = cloud.post(N + "/networks", {"network": {"name": "private"}}, user=user, status=201)
    net = net.json["network"]
    subnet = cloud.post(
        N + "/subnets",
        {"subnet": {"network_id": net["id"], "cidr": cidr, "name": "private-subnet"}},
        user=user,
        status=201,
    ).json["subnet"]
    return net, subnet


def _server(cloud, net, user="admin", name="vm1"):
    body = {
        "server": {
            "name": name,
            "imageRef": _image_id(cloud),
            "flavorRef": "2",
            "networks": [{"uuid": net["id"]}],
        }
    }
    return cloud.post(C + "/servers", body, user=user, status=202).json["server"]


def test_magnum_checks(simcloud):
    image = simcloud.get("/image/v2/images/" + _image_id(simcloud, "fedora-coreos-40")).json
    assert image["os_distro"] == "fedora-coreos"
    flavor = simcloud.get(C + "/flavors/3", status=200).json["flavor"]
    assert (flavor["name"], flavor["vcpus"], flavor["ram"]) == ("m1.medium", 2, 4096)
    names = [f["name"] for f in simcloud.get(C + "/flavors", status=200).json["flavors"]]
    assert names == ["m1.tiny", "m1.small", "m1.medium", "m1.large", "m1.xlarge"]
    # seeded: admin's keypair default ([simulation] keypairs), which is admin's only
    key = simcloud.get(C + "/os-keypairs/default", status=200).json["keypair"]
    assert key["name"] == "default" and key["public_key"].startswith("ssh-rsa ")
    assert key["user_id"] == bootstrap.seeded_id("user", "admin")
    assert "private_key" not in key
    assert simcloud.get(C + "/os-keypairs/default", user="demo", status=404)
    missing = simcloud.get(C + "/os-keypairs/nope", status=404).json
    assert missing["itemNotFound"]["code"] == 404
    public = simcloud.get(N + "/networks?router:external=True&name=public").json["networks"]
    assert public[0]["router:external"] is True
    subnet = simcloud.get(N + "/subnets/" + public[0]["subnets"][0]).json["subnet"]
    assert subnet["cidr"] == "172.24.4.0/24"


def test_server_lifecycle_addresses_and_floating_ip(simcloud):
    net, subnet = _network(simcloud)
    router = simcloud.post(N + "/routers", {"router": {"name": "r1"}}, status=201).json["router"]
    public = simcloud.get(N + "/networks?name=public").json["networks"][0]
    simcloud.put(
        N + "/routers/" + router["id"],
        {"router": {"external_gateway_info": {"network_id": public["id"]}}},
        status=200,
    )
    simcloud.put(
        N + "/routers/%s/add_router_interface" % router["id"],
        {"subnet_id": subnet["id"]},
        status=200,
    )
    server = _server(simcloud, net)
    port = simcloud.get(N + "/ports?device_id=" + server["id"]).json["ports"][0]
    fip = simcloud.post(
        N + "/floatingips",
        {"floatingip": {"floating_network_id": public["id"], "port_id": port["id"]}},
        status=201,
    ).json["floatingip"]
    assert fip["floating_ip_address"].startswith("172.24.4.")
    shown = simcloud.get(
        C + "/servers/" + server["id"], headers={"OpenStack-API-Version": "compute 2.79"}
    ).json["server"]
    assert shown["status"] == "ACTIVE"
    assert shown["flavor"]["original_name"] == "m1.small"
    kinds = {a["OS-EXT-IPS:type"]: a["addr"] for a in shown["addresses"]["private"]}
    assert kinds["fixed"].startswith("10.0.0.") and kinds["floating"] == fip["floating_ip_address"]
    # a network with ports cannot go, in Neutron's error body
    err = simcloud.delete(N + "/networks/" + net["id"], status=409).json["NeutronError"]
    assert err["type"] == "NetworkInUse"
    simcloud.delete(C + "/servers/" + server["id"], status=204)
    simcloud.get(C + "/servers/" + server["id"], status=404)
    assert simcloud.get(N + "/floatingips/" + fip["id"]).json["floatingip"]["port_id"] is None


def test_project_scoping(simcloud):
    net, _ = _network(simcloud)
    server = _server(simcloud, net)
    assert simcloud.get(C + "/servers/" + server["id"], user="demo", status=404).json[
        "itemNotFound"
    ]
    simcloud.delete(C + "/servers/" + server["id"], user="demo", status=404)
    err = simcloud.get(N + "/networks/" + net["id"], user="demo", status=404).json
    assert err["NeutronError"]["type"] == "NetworkNotFound"
    assert simcloud.get(C + "/servers", user="demo").json["servers"] == []
    names = {n["name"] for n in simcloud.get(N + "/networks", user="demo").json["networks"]}
    assert names == {"public"}
    groups = simcloud.get(N + "/security-groups", user="demo").json["security_groups"]
    assert [g["name"] for g in groups] == ["default"]


def test_bad_input_in_each_format(simcloud):
    assert simcloud.post(C + "/servers", {"server": {}}, status=400).json["badRequest"]
    body = {"server": {"name": "x", "imageRef": _image_id(simcloud), "flavorRef": "99"}}
    assert (
        "Flavor 99" in simcloud.post(C + "/servers", body, status=400).json["badRequest"]["message"]
    )
    resp = simcloud.request("POST", C + "/servers", status=400)
    assert resp.json["badRequest"]["code"] == 400
    err = simcloud.post(N + "/subnets", {"subnet": {"network_id": "x"}}, status=400).json
    assert "NeutronError" in err
    assert simcloud.get(C + "/servers", status=200).json["servers"] == []
    assert "404 Not Found" in simcloud.get("/image/v2/images/nope", status=404).text
    lb = simcloud.get("/load-balancer/v2/lbaas/loadbalancers/nope", status=404).json
    assert lb["faultcode"] == "Client"


def test_image_create_with_properties_and_patch(simcloud):
    image = simcloud.post(
        "/image/v2/images",
        {
            "name": "fcos",
            "disk_format": "qcow2",
            "container_format": "bare",
            "os_distro": "fedora-coreos",
        },
        status=201,
    ).json
    assert image["status"] == "queued" and image["os_distro"] == "fedora-coreos"
    simcloud.app.put(
        "/image/v2/images/%s/file" % image["id"],
        b"data",
        headers={"X-Auth-Token": simcloud.token(), "Content-Type": "application/octet-stream"},
        status=204,
    )
    patch = [
        {"op": "add", "path": "/hw_rng_model", "value": "virtio"},
        {"op": "remove", "path": "/os_distro"},
    ]
    resp = simcloud.app.patch(
        "/image/v2/images/" + image["id"],
        __import__("json").dumps(patch),
        headers={
            "X-Auth-Token": simcloud.token(),
            "Content-Type": "application/openstack-images-v2.1-json-patch",
        },
        status=200,
    ).json
    assert resp["status"] == "active" and resp["hw_rng_model"] == "virtio"
    assert "os_distro" not in resp
    # another project's private image is not found
    simcloud.get("/image/v2/images/" + image["id"], user="demo", status=404)


def test_volume_attach_through_nova(simcloud):
    net, _ = _network(simcloud)
    server = _server(simcloud, net)
    volume = simcloud.post(
        "/volume/v3/volumes", {"volume": {"name": "data", "size": 1}}, status=202
    ).json["volume"]
    simcloud.post(
        C + "/servers/%s/os-volume_attachments" % server["id"],
        {"volumeAttachment": {"volumeId": volume["id"]}},
        status=200,
    )
    project = simcloud.get("/identity/v3/auth/catalog").json  # any call; token works
    assert project
    shown = simcloud.get("/volume/v3/volumes/" + volume["id"]).json["volume"]
    assert shown["status"] == "in-use" and shown["attachments"][0]["server_id"] == server["id"]
    err = simcloud.delete("/volume/v3/volumes/" + volume["id"], status=400).json
    assert err["badRequest"]["code"] == 400
    simcloud.delete(
        C + "/servers/%s/os-volume_attachments/%s" % (server["id"], volume["id"]), status=202
    )
    simcloud.delete("/volume/v3/volumes/" + volume["id"], status=202)


def test_load_balancer(simcloud):
    _, subnet = _network(simcloud)
    lb = simcloud.post(
        "/load-balancer/v2/lbaas/loadbalancers",
        {"loadbalancer": {"name": "api", "vip_subnet_id": subnet["id"]}},
        status=201,
    ).json["loadbalancer"]
    assert lb["vip_address"].startswith("10.0.0.")
    listener = simcloud.post(
        "/load-balancer/v2/lbaas/listeners",
        {"listener": {"loadbalancer_id": lb["id"], "protocol": "TCP", "protocol_port": 6443}},
        status=201,
    ).json["listener"]
    pool = simcloud.post(
        "/load-balancer/v2/lbaas/pools",
        {"pool": {"listener_id": listener["id"], "protocol": "TCP", "lb_algorithm": "ROUND_ROBIN"}},
        status=201,
    ).json["pool"]
    simcloud.post(
        "/load-balancer/v2/lbaas/pools/%s/members" % pool["id"],
        {"member": {"address": "10.0.0.9", "protocol_port": 6443}},
        status=201,
    )
    other = simcloud.post(
        "/load-balancer/v2/lbaas/loadbalancers",
        {"loadbalancer": {"name": "etcd", "vip_subnet_id": subnet["id"]}},
        status=201,
    ).json["loadbalancer"]
    simcloud.post(
        "/load-balancer/v2/lbaas/pools",
        {"pool": {"loadbalancer_id": other["id"], "name": "p2", "protocol": "TCP"}},
        status=201,
    )
    # list filters: only the matching objects, each with its related lists
    listed = simcloud.get("/load-balancer/v2/lbaas/pools?loadbalancer_id=" + lb["id"]).json
    assert [(p["id"], len(p["members"])) for p in listed["pools"]] == [(pool["id"], 1)]
    listed = simcloud.get("/load-balancer/v2/lbaas/pools?name=p2").json["pools"]
    assert [p["loadbalancers"] for p in listed] == [[{"id": other["id"]}]]
    listed = simcloud.get("/load-balancer/v2/lbaas/loadbalancers?name=api").json
    assert [b["listeners"] for b in listed["loadbalancers"]] == [[{"id": listener["id"]}]]
    active = "/load-balancer/v2/lbaas/loadbalancers?provisioning_status=ACTIVE&name=etcd"
    assert [b["id"] for b in simcloud.get(active).json["loadbalancers"]] == [other["id"]]
    simcloud.delete("/load-balancer/v2/lbaas/loadbalancers/%s?cascade=true" % other["id"])
    err = simcloud.delete("/load-balancer/v2/lbaas/loadbalancers/" + lb["id"], status=409).json
    assert err["faultcode"] == "Client"
    for path in ("pools/" + pool["id"], "listeners/" + listener["id"], "loadbalancers/" + lb["id"]):
        simcloud.delete("/load-balancer/v2/lbaas/" + path, status=204)


def test_injection_at_run_time(simcloud):
    net, _ = _network(simcloud)
    simcloud.put("/simcloud/v1/injection", {"injection": {"build_time": 30}}, status=200)
    slow = _server(simcloud, net, name="slow")
    assert simcloud.get(C + "/servers/" + slow["id"]).json["server"]["status"] == "BUILD"
    simcloud.put(
        "/simcloud/v1/injection",
        {"injection": {"build_time": 0, "fail_objects": ["nova.server:*-master-0"]}},
        status=200,
    )
    failed = _server(simcloud, net, name="k8s-master-0")
    shown = simcloud.get(C + "/servers/" + failed["id"]).json["server"]
    assert shown["status"] == "ERROR" and "failure on purpose" in shown["fault"]["message"]
    simcloud.put("/simcloud/v1/injection", {"injection": {"build_time": -1}}, status=400)
    simcloud.put("/simcloud/v1/injection", {"injection": {"x": 1}}, status=400)
    simcloud.put("/simcloud/v1/injection", {"injection": {}}, user="demo", status=403)
    reset = simcloud.delete("/simcloud/v1/injection", status=200).json["injection"]
    assert reset["fail_objects"] == [] and reset["build_time"] == 0


def test_server_update_calls_heat_makes(simcloud):
    net, _ = _network(simcloud)
    server = _server(simcloud, net)
    path = C + "/servers/" + server["id"]
    simcloud.put(path, {"server": {"name": "renamed"}}, status=200)
    simcloud.put(path + "/metadata", {"metadata": {"role": "master"}}, status=200)
    simcloud.put(path + "/tags", {"tags": ["k8s"]}, status=200)
    simcloud.post(path + "/action", {"resize": {"flavorRef": "3"}}, status=202)
    assert simcloud.get(path).json["server"]["status"] == "VERIFY_RESIZE"
    simcloud.post(path + "/action", {"confirmResize": None}, status=204)
    simcloud.post(path + "/action", {"confirmResize": None}, status=409)
    simcloud.post(path + "/action", {"resize": {"flavorRef": "3"}}, status=400)
    simcloud.post(path + "/action", {"resize": {"flavorRef": "4"}}, status=202)
    simcloud.post(path + "/action", {"revertResize": None}, status=202)
    shown = simcloud.get(path, headers={"OpenStack-API-Version": "compute 2.79"}).json["server"]
    assert (shown["name"], shown["metadata"], shown["tags"]) == (
        "renamed",
        {"role": "master"},
        ["k8s"],
    )
    assert shown["flavor"]["original_name"] == "m1.medium"
    simcloud.post(path + "/action", {"os-stop": None}, status=202)
    assert simcloud.get(path).json["server"]["status"] == "SHUTOFF"
    err = simcloud.post(path + "/action", {"fly": {}}, status=400).json
    assert err["badRequest"]["code"] == 400
    # interfaces: a port made for the server goes when it is detached
    port = simcloud.post(
        C + "/servers/%s/os-interface" % server["id"],
        {"interfaceAttachment": {"net_id": net["id"]}},
        status=200,
    )
    port_id = port.json["interfaceAttachment"]["port_id"]
    listed = simcloud.get(C + "/servers/%s/os-interface" % server["id"]).json
    assert port_id in {i["port_id"] for i in listed["interfaceAttachments"]}
    simcloud.delete(C + "/servers/%s/os-interface/%s" % (server["id"], port_id), status=202)
    simcloud.get(N + "/ports/" + port_id, status=404)


def test_volume_extend_and_octavia_relations(simcloud):
    volume = simcloud.post("/volume/v3/volumes", {"volume": {"size": 1}}, status=202).json
    vid = volume["volume"]["id"]
    simcloud.post("/volume/v3/volumes/%s/action" % vid, {"os-extend": {"new_size": 2}}, status=202)
    assert simcloud.get("/volume/v3/volumes/" + vid).json["volume"]["size"] == 2
    _, subnet = _network(simcloud)
    lb = simcloud.post(
        "/load-balancer/v2.0/lbaas/loadbalancers",
        {"loadbalancer": {"vip_subnet_id": subnet["id"]}},
        status=201,
    ).json
    lb_id = lb["loadbalancer"]["id"]
    listener = simcloud.post(
        "/load-balancer/v2/lbaas/listeners",
        {"listener": {"loadbalancer_id": lb_id, "protocol": "HTTP", "protocol_port": 80}},
        status=201,
    ).json
    assert listener["listener"]["loadbalancers"] == [{"id": lb_id}]
    shown = simcloud.get("/load-balancer/v2/lbaas/loadbalancers/" + lb_id).json["loadbalancer"]
    assert shown["listeners"] == [{"id": listener["listener"]["id"]}]
    pool = simcloud.post(
        "/load-balancer/v2/lbaas/pools",
        {"pool": {"loadbalancer_id": lb_id, "protocol": "HTTP", "lb_algorithm": "ROUND_ROBIN"}},
        status=201,
    ).json["pool"]
    member = simcloud.post(
        "/load-balancer/v2/lbaas/pools/%s/members" % pool["id"],
        {"member": {"address": "10.0.0.20", "protocol_port": 80}},
        status=201,
    ).json["member"]
    path = "/load-balancer/v2/lbaas/pools/%s/members/%s" % (pool["id"], member["id"])
    assert simcloud.put(path, {"member": {"weight": 5}}, status=200).json["member"]["weight"] == 5
    simcloud.delete("/load-balancer/v2/lbaas/loadbalancers/%s?cascade=true" % lb_id, status=204)
    simcloud.get(path, status=404)
    simcloud.get("/load-balancer/v2/lbaas/listeners/" + listener["listener"]["id"], status=404)


def test_server_security_groups(simcloud):
    net, _ = _network(simcloud)
    group = simcloud.post(
        N + "/security-groups", {"security_group": {"name": "web"}}, status=201
    ).json["security_group"]
    body = {
        "server": {
            "name": "vm",
            "imageRef": _image_id(simcloud),
            "flavorRef": "1",
            "networks": [{"uuid": net["id"]}],
            "security_groups": [{"name": "web"}, {"name": "default"}],
        }
    }
    server = simcloud.post(C + "/servers", body, status=202).json["server"]
    port = simcloud.get(N + "/ports?device_id=" + server["id"]).json["ports"][0]
    assert group["id"] in port["security_groups"] and len(port["security_groups"]) == 2
    body["server"]["security_groups"] = [{"name": "nope"}]
    err = simcloud.post(C + "/servers", body, status=400).json["badRequest"]
    assert "Security group nope not found" in err["message"]
    # a group a port holds cannot go (Neutron's 409); once the server is gone, it can
    path = N + "/security-groups/" + group["id"]
    err = simcloud.delete(path, status=409).json["NeutronError"]
    assert err["type"] == "SecurityGroupInUse"
    simcloud.delete(C + "/servers/" + server["id"], status=204)
    simcloud.delete(path, status=204)
    simcloud.get(path, status=404)


def test_floating_ip_needs_a_router_to_the_port(simcloud):
    net, _ = _network(simcloud)
    public = simcloud.get(N + "/networks?name=public").json["networks"][0]
    port = simcloud.post(N + "/ports", {"port": {"network_id": net["id"]}}, status=201).json
    body = {"floatingip": {"floating_network_id": public["id"], "port_id": port["port"]["id"]}}
    err = simcloud.post(N + "/floatingips", body, status=404).json["NeutronError"]
    assert err["type"] == "ExternalGatewayForFloatingIPNotFound"
    # nothing is stored: neither the floating IP nor the port that would hold its address
    assert simcloud.get(N + "/floatingips").json["floatingips"] == []
    ports = simcloud.get(N + "/ports?network_id=" + public["id"]).json["ports"]
    assert [p for p in ports if p["device_owner"] == "network:floatingip"] == []


def test_port_unbound_by_update_goes_down(simcloud):
    net, _ = _network(simcloud)
    port = simcloud.post(N + "/ports", {"port": {"network_id": net["id"]}}, status=201).json
    port_id = port["port"]["id"]
    assert port["port"]["status"] == "DOWN"
    body = {
        "server": {
            "name": "vm",
            "imageRef": _image_id(simcloud),
            "flavorRef": "1",
            "networks": [{"port": port_id}],
        }
    }
    server = simcloud.post(C + "/servers", body, status=202).json["server"]
    shown = simcloud.get(N + "/ports/" + port_id).json["port"]
    assert (shown["status"], shown["device_id"]) == ("ACTIVE", server["id"])
    # the port is in use: a second server cannot take it, and is not left behind
    body["server"]["name"] = "vm2"
    simcloud.post(C + "/servers", body, status=409)
    assert [s["name"] for s in simcloud.get(C + "/servers").json["servers"]] == ["vm"]
    simcloud.put(
        N + "/ports/" + port_id, {"port": {"device_id": "", "device_owner": ""}}, status=200
    )
    assert simcloud.get(N + "/ports/" + port_id).json["port"]["status"] == "DOWN"


def test_neutron_attributes(simcloud):
    body = {"network": {"name": "n", "dns_domain": "example.org.", "qos_policy_id": None}}
    net = simcloud.post(N + "/networks", body, status=201).json["network"]
    assert net["dns_domain"] == "example.org."
    err = simcloud.post(N + "/networks", {"network": {"bogus": 1}}, status=400).json
    assert err["NeutronError"]["message"] == "Unrecognized attribute(s) 'bogus'"
    simcloud.put(N + "/networks/" + net["id"], {"network": {"mtu": 1400}}, status=200)
    err = simcloud.put(
        N + "/networks/" + net["id"], {"network": {"router:external": True}}, status=400
    ).json
    assert "read-only" in err["NeutronError"]["message"]
    assert simcloud.get(N + "/networks/" + net["id"]).json["network"]["mtu"] == 1400
