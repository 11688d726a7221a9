# ==== install-cri.sh ====
# With container_runtime=containerd the node runs containerd from the release
# tarball (verified against its sha256 when one is given) instead of the
# image's docker; host-docker keeps what Fedora CoreOS ships.
. /etc/sysconfig/heat-params
if [ "$CONTAINER_RUNTIME" = "containerd" ]; then
    release_url="${CONTAINERD_TARBALL_URL:-https://github.com/containerd/containerd/releases/download/v${CONTAINERD_VERSION}/cri-containerd-cni-${CONTAINERD_VERSION}-linux-${ARCH}.tar.gz}"
    tarball=/srv/magnum/cri-containerd.tar.gz
    install -d /srv/magnum
    until curl --fail --silent --location -o "$tarball" "$release_url"; do
        echo "magnum: waiting to download $release_url"; sleep 5
    done
    if [ -n "$CONTAINERD_TARBALL_SHA256" ]; then
        echo "$CONTAINERD_TARBALL_SHA256  $tarball" | sha256sum --check --status \
            || { echo "magnum: $tarball does not match its sha256"; exit 1; }
    fi
    tar --no-overwrite-dir -C / -xzf "$tarball"
    install -d /etc/containerd
    containerd config default | sed 's/SystemdCgroup = false/SystemdCgroup = true/' \
        > /etc/containerd/config.toml
    systemctl daemon-reload
    systemctl enable --now containerd
fi
