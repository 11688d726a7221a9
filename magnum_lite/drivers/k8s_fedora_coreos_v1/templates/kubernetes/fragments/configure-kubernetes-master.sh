# ==== configure-kubernetes-master.sh ====
# The control plane: kube-apiserver, kube-controller-manager and kube-scheduler as
# containers of the hyperkube image (kube_tag), a kubelet that registers the master
# tainted, and the kubeconfigs they use.
. /etc/sysconfig/heat-params
image="${CONTAINER_INFRA_PREFIX:-$HYPERKUBE_PREFIX}hyperkube:${KUBE_TAG}"
[ -n "$KUBE_IMAGE_DIGEST" ] && image="$image@$KUBE_IMAGE_DIGEST"
certs=/etc/kubernetes/certs
conf=/etc/kubernetes
install -d "$conf/manifests"

if [ "$TLS_DISABLED" = "True" ]; then
    secure="--insecure-port=$KUBE_API_PORT --insecure-bind-address=0.0.0.0"
    etcd_url="http://127.0.0.1:2379"
else
    secure="--secure-port=$KUBE_API_PORT --tls-cert-file=$certs/server.crt"
    secure="$secure --tls-private-key-file=$certs/server.key --client-ca-file=$certs/ca.crt"
    secure="$secure --kubelet-certificate-authority=$certs/ca.crt"
    etcd_url="https://127.0.0.1:2379 --etcd-cafile=$certs/ca.crt"
    etcd_url="$etcd_url --etcd-certfile=$certs/server.crt --etcd-keyfile=$certs/server.key"
fi

apiserver_args="--advertise-address=$KUBE_NODE_IP --allow-privileged=$KUBE_ALLOW_PRIV"
apiserver_args="$apiserver_args --service-cluster-ip-range=$PORTAL_NETWORK_CIDR --etcd-servers=$etcd_url"
apiserver_args="$apiserver_args --enable-admission-plugins=$ADMISSION_CONTROL_LIST"
apiserver_args="$apiserver_args --service-account-key-file=$certs/service_account.key"
apiserver_args="$apiserver_args --service-account-signing-key-file=$certs/service_account_private.key"
apiserver_args="$apiserver_args --service-account-issuer=https://kubernetes.default.svc.$DNS_CLUSTER_DOMAIN"
apiserver_args="$apiserver_args --authorization-mode=Node,RBAC $secure $KUBEAPI_OPTIONS"
if [ "$KEYSTONE_AUTH_ENABLED" = "True" ]; then
    apiserver_args="$apiserver_args --authentication-token-webhook-config-file=$conf/keystone_webhook_config.yaml"
    apiserver_args="$apiserver_args --authorization-webhook-config-file=$conf/keystone_webhook_config.yaml"
    apiserver_args="${apiserver_args/--authorization-mode=Node,RBAC/--authorization-mode=Node,Webhook,RBAC}"
fi
[ "$CLOUD_PROVIDER_ENABLED" = "True" ] && apiserver_args="$apiserver_args --cloud-provider=external"

controller_args="--leader-elect=true --kubeconfig=$conf/controller.kubeconfig"
controller_args="$controller_args --service-account-private-key-file=$certs/service_account_private.key"
controller_args="$controller_args --root-ca-file=$certs/ca.crt --cluster-cidr=$PODS_NETWORK_CIDR"
controller_args="$controller_args --allocate-node-cidrs=true --node-cidr-mask-size=$FLANNEL_NETWORK_SUBNETLEN"
[ "$CERT_MANAGER_API" = "True" ] && controller_args="$controller_args --cluster-signing-cert-file=$certs/ca.crt --cluster-signing-key-file=$certs/ca.key"
[ "$CLOUD_PROVIDER_ENABLED" = "True" ] && controller_args="$controller_args --cloud-provider=external"
controller_args="$controller_args $KUBECONTROLLER_OPTIONS"

scheduler_args="--leader-elect=true --kubeconfig=$conf/scheduler.kubeconfig $KUBESCHEDULER_OPTIONS"

# kubeconfig NAME USER: a kubeconfig for USER's client certificate
kubeconfig() {
    cat > "$conf/$1.kubeconfig" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: local
  cluster: {certificate-authority: $certs/ca.crt, server: "https://127.0.0.1:$KUBE_API_PORT"}
users:
- name: $2
  user: {client-certificate: $certs/$1.crt, client-key: $certs/$1.key}
contexts:
- name: default
  context: {cluster: local, user: $2}
current-context: default
KUBECONFIG
}
kubeconfig admin admin
kubeconfig controller system:kube-controller-manager
kubeconfig scheduler system:kube-scheduler
kubeconfig kubelet "system:node:$(hostname -s)"
kubeconfig proxy system:kube-proxy

# control_plane_unit NAME ARGS
control_plane_unit() {
    cat > "/etc/systemd/system/kube-$1.service" <<UNIT
[Unit]
Description=kube-$1 ($image)
After=etcd.service
Wants=etcd.service

[Service]
ExecStartPre=-/bin/podman rm --force kube-$1
ExecStart=/bin/podman run --name kube-$1 --network host --volume $conf:$conf:ro,z $image kube-$1 $2
ExecStop=/bin/podman stop kube-$1
Restart=always
RestartSec=10

[Install]
WantedBy=multi-user.target
UNIT
}
control_plane_unit apiserver "$apiserver_args"
control_plane_unit controller-manager "$controller_args"
control_plane_unit scheduler "$scheduler_args"

# the master's kubelet keeps ordinary pods off it
kubelet_args="--kubeconfig=$conf/kubelet.kubeconfig --cgroup-driver=$CGROUP_DRIVER"
kubelet_args="$kubelet_args --cluster-dns=$DNS_SERVICE_IP --cluster-domain=$DNS_CLUSTER_DOMAIN"
kubelet_args="$kubelet_args --node-ip=$KUBE_NODE_IP --register-with-taints=node-role.kubernetes.io/master=:NoSchedule"
kubelet_args="$kubelet_args --node-labels=magnum.openstack.org/role=$NODEGROUP_ROLE,magnum.openstack.org/nodegroup=$NODEGROUP_NAME"
[ "$CONTAINER_RUNTIME" = "containerd" ] && kubelet_args="$kubelet_args --container-runtime-endpoint=unix:///run/containerd/containerd.sock"
[ "$CLOUD_PROVIDER_ENABLED" = "True" ] && kubelet_args="$kubelet_args --cloud-provider=external"
echo "KUBELET_ARGS=\"$kubelet_args $KUBELET_OPTIONS\"" > "$conf/kubelet.env"
echo "KUBE_PROXY_ARGS=\"--kubeconfig=$conf/proxy.kubeconfig --cluster-cidr=$PODS_NETWORK_CIDR $KUBEPROXY_OPTIONS\"" > "$conf/proxy.env"
