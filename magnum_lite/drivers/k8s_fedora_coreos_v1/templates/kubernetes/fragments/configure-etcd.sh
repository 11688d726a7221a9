# ==== configure-etcd.sh ====
# etcd on every master, in a container: its data on the etcd volume when the
# cluster has one (etcd_volume_size), peers found through the discovery URL,
# client and peer traffic on TLS with the master's certificate.
. /etc/sysconfig/heat-params
data_dir=/var/lib/etcd
install -d -m 0700 "$data_dir"

if [ -n "$ETCD_VOLUME_SIZE" ] && [ "$ETCD_VOLUME_SIZE" -gt 0 ] 2>/dev/null; then
    # Cinder names the device by the first 20 characters of the volume id
    device="/dev/disk/by-id/virtio-${ETCD_VOLUME:0:20}"
    for _ in $(seq 60); do [ -e "$device" ] && break; sleep 2; done
    [ -e "$device" ] || { echo "magnum: etcd volume $ETCD_VOLUME never appeared"; exit 1; }
    blkid "$device" >/dev/null || mkfs.xfs -q "$device"
    grep -q " $data_dir " /proc/mounts || mount "$device" "$data_dir"
    echo "$device $data_dir xfs defaults 0 0" >> /etc/fstab
fi

scheme=https
[ "$TLS_DISABLED" = "True" ] && scheme=http
certs=/etc/kubernetes/certs
install -d /etc/etcd
cat > /etc/etcd/etcd.env <<ETCD_ENV
ETCD_NAME=$INSTANCE_NAME
ETCD_DATA_DIR=$data_dir/default.etcd
ETCD_LISTEN_CLIENT_URLS=$scheme://0.0.0.0:2379
ETCD_LISTEN_PEER_URLS=$scheme://$KUBE_NODE_IP:2380
ETCD_ADVERTISE_CLIENT_URLS=$scheme://$KUBE_NODE_IP:2379
ETCD_INITIAL_ADVERTISE_PEER_URLS=$scheme://$KUBE_NODE_IP:2380
ETCD_DISCOVERY=$ETCD_DISCOVERY_URL
ETCD_CERT_FILE=$certs/server.crt
ETCD_KEY_FILE=$certs/server.key
ETCD_TRUSTED_CA_FILE=$certs/ca.crt
ETCD_PEER_CERT_FILE=$certs/server.crt
ETCD_PEER_KEY_FILE=$certs/server.key
ETCD_PEER_TRUSTED_CA_FILE=$certs/ca.crt
ETCD_ENV

cat > /etc/systemd/system/etcd.service <<UNIT
[Unit]
Description=etcd, the cluster's store (image ${CONTAINER_INFRA_PREFIX:-quay.io/coreos/}etcd:${ETCD_TAG})
After=network-online.target
Wants=network-online.target

[Service]
EnvironmentFile=/etc/etcd/etcd.env
ExecStartPre=-/bin/podman rm --force etcd
ExecStart=/bin/podman run --name etcd --network host --env-file /etc/etcd/etcd.env \\
    --volume $data_dir:$data_dir:z --volume $certs:$certs:ro,z \\
    ${CONTAINER_INFRA_PREFIX:-quay.io/coreos/}etcd:${ETCD_TAG} /usr/local/bin/etcd
ExecStop=/bin/podman stop etcd
Restart=always
RestartSec=5

[Install]
WantedBy=multi-user.target
UNIT
