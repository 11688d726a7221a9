# ==== calico-service-v3-26-x.sh ====
# With network_driver=calico: the Calico v3.26 node agent on every node and its
# controllers, the IPv4 pool being calico_ipv4pool with IP-in-IP as calico_ipv4pool_ipip.
# kubecluster.yaml picks this fragment or the other by calico_tag (condition calico_v3_26).
. /etc/sysconfig/heat-params
if [ "$NETWORK_DRIVER" = "calico" ]; then
    calico_prefix="${CONTAINER_INFRA_PREFIX:-quay.io/calico/}"
    apply_manifest calico <<MANIFEST
apiVersion: v1
kind: ConfigMap
metadata: {name: calico-config, namespace: kube-system}
data:
  calico_backend: bird
  veth_mtu: "1430"
  cni_network_config: |
    {"name": "k8s-pod-network", "cniVersion": "0.3.1",
     "plugins": [{"type": "calico", "datastore_type": "kubernetes", "nodename": "__KUBERNETES_NODE_NAME__",
                  "ipam": {"type": "calico-ipam"}, "policy": {"type": "k8s"},
                  "kubernetes": {"kubeconfig": "__KUBECONFIG_FILEPATH__"}},
                 {"type": "portmap", "snat": true, "capabilities": {"portMappings": true}}]}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: calico-node, namespace: kube-system}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: calico-node, namespace: kube-system, labels: {k8s-app: calico-node}}
spec:
  selector: {matchLabels: {k8s-app: calico-node}}
  template:
    metadata: {labels: {k8s-app: calico-node}}
    spec:
      hostNetwork: true
      serviceAccountName: calico-node
      tolerations: [{operator: Exists}]
      initContainers:
      - name: install-cni
        image: ${calico_prefix}cni:${CALICO_TAG}
        command: [/opt/cni/bin/install]
        env: [{name: CNI_NETWORK_CONFIG, valueFrom: {configMapKeyRef: {name: calico-config, key: cni_network_config}}}]
        volumeMounts: [{name: cni-bin, mountPath: /host/opt/cni/bin}, {name: cni-net, mountPath: /host/etc/cni/net.d}]
      containers:
      - name: calico-node
        image: ${calico_prefix}node:${CALICO_TAG}
        securityContext: {privileged: true}
        env:
        - {name: DATASTORE_TYPE, value: kubernetes}
        - {name: CALICO_IPV4POOL_CIDR, value: "${CALICO_IPV4POOL}"}
        - {name: CALICO_IPV4POOL_IPIP, value: "${CALICO_IPV4POOL_IPIP}"}
        - {name: IP_AUTODETECTION_METHOD, value: "can-reach=${KUBE_API_PRIVATE_ADDRESS:-$KUBE_NODE_IP}"}
        - {name: FELIX_DEFAULTENDPOINTTOHOSTACTION, value: ACCEPT}
        - {name: FELIX_BPFENABLED, value: "false"}
        - {name: CALICO_MANAGE_CNI, value: "true"}
        - {name: NODENAME, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}
      volumes:
      - {name: cni-bin, hostPath: {path: /opt/cni/bin}}
      - {name: cni-net, hostPath: {path: /etc/cni/net.d}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: calico-kube-controllers, namespace: kube-system}
spec:
  replicas: 1
  selector: {matchLabels: {k8s-app: calico-kube-controllers}}
  template:
    metadata: {labels: {k8s-app: calico-kube-controllers}}
    spec:
      serviceAccountName: calico-node
      tolerations: [{key: node-role.kubernetes.io/master, effect: NoSchedule}]
      containers:
      - name: calico-kube-controllers
        image: ${calico_prefix}kube-controllers:${CALICO_TAG}
        env: [{name: DATASTORE_TYPE, value: kubernetes}, {name: ENABLED_CONTROLLERS, value: "node"}]
MANIFEST
fi
