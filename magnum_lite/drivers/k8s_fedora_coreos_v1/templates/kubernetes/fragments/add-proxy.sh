# ==== add-proxy.sh ====
# The template's HTTP(S) proxy for the container runtime and every login shell;
# the cluster's own addresses never go through it.
. /etc/sysconfig/heat-params
if [ -n "$HTTP_PROXY$HTTPS_PROXY" ]; then
    no_proxy_list="${NO_PROXY:+$NO_PROXY,}localhost,127.0.0.1,$KUBE_NODE_IP"
    for dropin_dir in /etc/systemd/system/docker.service.d /etc/systemd/system/containerd.service.d; do
        install -d "$dropin_dir"
        {
            echo "[Service]"
            [ -n "$HTTP_PROXY" ] && echo "Environment=HTTP_PROXY=$HTTP_PROXY"
            [ -n "$HTTPS_PROXY" ] && echo "Environment=HTTPS_PROXY=$HTTPS_PROXY"
            echo "Environment=NO_PROXY=$no_proxy_list"
        } > "$dropin_dir/proxy.conf"
    done
    {
        [ -n "$HTTP_PROXY" ] && echo "export http_proxy=$HTTP_PROXY HTTP_PROXY=$HTTP_PROXY"
        [ -n "$HTTPS_PROXY" ] && echo "export https_proxy=$HTTPS_PROXY HTTPS_PROXY=$HTTPS_PROXY"
        echo "export no_proxy=$no_proxy_list NO_PROXY=$no_proxy_list"
    } > /etc/profile.d/magnum-proxy.sh
    systemctl daemon-reload
    systemctl try-restart docker containerd || true
fi
