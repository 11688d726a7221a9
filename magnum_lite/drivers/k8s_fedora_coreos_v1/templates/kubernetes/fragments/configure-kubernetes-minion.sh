# ==== configure-kubernetes-minion.sh ====
# A worker: a kubelet and kube-proxy that reach the API through kube_master_ip
# (the API load balancer's VIP, or master 0), with the node's labels and the
# cloud provider when it is on.
. /etc/sysconfig/heat-params
conf=/etc/kubernetes
certs=$conf/certs
install -d "$conf/manifests"
if [ "$TLS_DISABLED" = "True" ]; then
    server="http://$KUBE_MASTER_IP:$KUBE_API_PORT"
else
    server="https://$KUBE_MASTER_IP:$KUBE_API_PORT"
fi

# node_kubeconfig NAME USER
node_kubeconfig() {
    cat > "$conf/$1.kubeconfig" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: cluster
  cluster: {certificate-authority: $certs/ca.crt, server: "$server"}
users:
- name: $2
  user: {client-certificate: $certs/$1.crt, client-key: $certs/$1.key}
contexts:
- name: default
  context: {cluster: cluster, user: $2}
current-context: default
KUBECONFIG
}
node_kubeconfig kubelet "system:node:$(hostname -s)"
node_kubeconfig proxy system:kube-proxy

labels="magnum.openstack.org/role=$NODEGROUP_ROLE,magnum.openstack.org/nodegroup=$NODEGROUP_NAME"
kubelet_args="--kubeconfig=$conf/kubelet.kubeconfig --cgroup-driver=$CGROUP_DRIVER --node-ip=$KUBE_NODE_IP"
kubelet_args="$kubelet_args --cluster-dns=$DNS_SERVICE_IP --cluster-domain=$DNS_CLUSTER_DOMAIN --node-labels=$labels"
[ "$CONTAINER_RUNTIME" = "containerd" ] && kubelet_args="$kubelet_args --container-runtime-endpoint=unix:///run/containerd/containerd.sock"
[ "$CLOUD_PROVIDER_ENABLED" = "True" ] && kubelet_args="$kubelet_args --cloud-provider=external"
[ "$VOLUME_DRIVER" = "cinder" ] && kubelet_args="$kubelet_args --volume-plugin-dir=/var/lib/kubelet/volumeplugins"
echo "KUBELET_ARGS=\"$kubelet_args $KUBELET_OPTIONS\"" > "$conf/kubelet.env"
echo "KUBE_PROXY_ARGS=\"--kubeconfig=$conf/proxy.kubeconfig --cluster-cidr=$PODS_NETWORK_CIDR $KUBEPROXY_OPTIONS\"" > "$conf/proxy.env"

image="${CONTAINER_INFRA_PREFIX:-$HYPERKUBE_PREFIX}hyperkube:${KUBE_TAG}"
for svc in kubelet kube-proxy; do
    envfile=$conf/proxy.env; args_var=KUBE_PROXY_ARGS; privileged=""
    if [ "$svc" = kubelet ]; then envfile=$conf/kubelet.env; args_var=KUBELET_ARGS; privileged="--privileged --pid host"; fi
    cat > "/etc/systemd/system/$svc.service" <<UNIT
[Unit]
Description=$svc ($image)
After=network-online.target
Wants=network-online.target

[Service]
EnvironmentFile=$envfile
ExecStartPre=-/bin/podman rm --force $svc
ExecStart=/bin/podman run --name $svc --network host $privileged --volume /:/rootfs:ro,rslave \\
    --volume $conf:$conf:ro,z --volume /var/lib/kubelet:/var/lib/kubelet:rshared,z $image $svc \$$args_var
ExecStop=/bin/podman stop $svc
Restart=always
RestartSec=10

[Install]
WantedBy=multi-user.target
UNIT
done
