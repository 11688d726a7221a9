    # ---- configure_docker_storage_driver_fedora_coreos.sh (inlined above)
    # configure_storage_driver DEVICE: an XFS filesystem (d_type on, which overlay2
    # needs) mounted where the runtime keeps images, for docker_storage_driver.
    configure_storage_driver() {
        local device=$1 runtime_dir=/var/lib/docker
        [ "$CONTAINER_RUNTIME" = "containerd" ] && runtime_dir=/var/lib/containerd
        systemctl stop docker containerd 2>/dev/null || true
        blkid "$device" >/dev/null || mkfs.xfs -q -n ftype=1 "$device"
        install -d "$runtime_dir"
        grep -q " $runtime_dir " /proc/mounts || mount -o pquota "$device" "$runtime_dir"
        echo "$device $runtime_dir xfs defaults,pquota 0 0" >> /etc/fstab
        if [ "$runtime_dir" = /var/lib/docker ]; then
            install -d /etc/docker
            printf '{"storage-driver": "%s", "log-driver": "journald"}\n' "$DOCKER_STORAGE_DRIVER" \
                > /etc/docker/daemon.json
        fi
    }
