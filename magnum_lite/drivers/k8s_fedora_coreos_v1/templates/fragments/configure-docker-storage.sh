# ==== configure-docker-storage.sh ====
# Container storage on the node's docker volume when it has one (docker_volume_size):
# the OS-specific part is inlined at the marker below (Fedora CoreOS's in
# configure_docker_storage_driver_fedora_coreos.sh).
. /etc/sysconfig/heat-params
if [ -n "$DOCKER_VOLUME_SIZE" ] && [ "$DOCKER_VOLUME_SIZE" -gt 0 ] 2>/dev/null; then
    # Cinder volumes show up by the first 20 characters of their id
    docker_device="/dev/disk/by-id/virtio-${DOCKER_VOLUME:0:20}"
    for _ in $(seq 60); do [ -e "$docker_device" ] && break; sleep 2; done
    if [ ! -e "$docker_device" ]; then
        echo "magnum: docker volume $DOCKER_VOLUME never appeared"
        exit 1
    fi
__CONFIGURE_DOCKER_STORAGE_DRIVER__
    configure_storage_driver "$docker_device"
else
    echo "magnum: containers stay on the root disk"
fi
