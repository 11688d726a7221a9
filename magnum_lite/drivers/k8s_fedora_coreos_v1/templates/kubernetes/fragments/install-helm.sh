# ==== install-helm.sh ====
# The helm client (helm_client_tag, or helm_client_url checked against
# helm_client_sha256) for the charts the helm/ fragments add.
. /etc/sysconfig/heat-params
helm_dir=/srv/magnum/kubernetes/helm
install -d "$helm_dir"
: > "$helm_dir/charts.list"
if [ ! -x /srv/magnum/bin/helm ]; then
    helm_url="${HELM_CLIENT_URL:-https://get.helm.sh/helm-${HELM_CLIENT_TAG}-linux-${ARCH}.tar.gz}"
    curl --fail --silent --location --retry 10 -o "$helm_dir/helm.tar.gz" "$helm_url"
    if [ -n "$HELM_CLIENT_SHA256" ]; then
        echo "$HELM_CLIENT_SHA256  $helm_dir/helm.tar.gz" | sha256sum --check --status \
            || { echo "magnum: the helm client does not match its sha256"; exit 1; }
    fi
    tar -xzf "$helm_dir/helm.tar.gz" -C "$helm_dir" --strip-components 1 "linux-${ARCH}/helm"
    install -m 0755 "$helm_dir/helm" /srv/magnum/bin/helm
fi

# add_chart RELEASE NAMESPACE REPO_URL CHART VERSION: the values are on stdin;
# install-helm-modules.sh installs every chart added
add_chart() {
    cat > "$helm_dir/$1.values.yaml"
    echo "$1 $2 $3 $4 $5" >> "$helm_dir/charts.list"
}
