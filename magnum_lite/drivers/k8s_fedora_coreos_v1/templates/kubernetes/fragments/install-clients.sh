# ==== install-clients.sh ====
# kubectl of the cluster's version, into /srv/magnum/bin (/usr is read-only on
# Fedora CoreOS), on the PATH of every login shell.
. /etc/sysconfig/heat-params
bin=/srv/magnum/bin
install -d "$bin"
if [ ! -x "$bin/kubectl" ]; then
    version="${KUBE_TAG%%-*}"
    curl --fail --silent --location --retry 10 -o "$bin/kubectl" \
        "https://dl.k8s.io/release/${version}/bin/linux/${ARCH}/kubectl"
    chmod 0755 "$bin/kubectl"
fi
echo "export PATH=\$PATH:$bin" > /etc/profile.d/magnum-bin.sh
export PATH="$PATH:$bin"
