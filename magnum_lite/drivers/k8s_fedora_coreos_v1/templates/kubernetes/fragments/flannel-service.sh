# ==== flannel-service.sh ====
# With network_driver=flannel: flanneld on every node carving
# flannel_network_subnetlen-sized subnets out of flannel_network_cidr, over the
# flannel_backend (vxlan by default).
. /etc/sysconfig/heat-params
if [ "$NETWORK_DRIVER" = "flannel" ]; then
    flannel_prefix="${CONTAINER_INFRA_PREFIX:-quay.io/coreos/}"
    apply_manifest flannel <<MANIFEST
apiVersion: v1
kind: ServiceAccount
metadata: {name: flannel, namespace: kube-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: flannel}
rules:
- {apiGroups: [""], resources: [pods], verbs: [get]}
- {apiGroups: [""], resources: [nodes], verbs: [list, watch]}
- {apiGroups: [""], resources: [nodes/status], verbs: [patch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: flannel}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: flannel}
subjects: [{kind: ServiceAccount, name: flannel, namespace: kube-system}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: kube-flannel-cfg, namespace: kube-system}
data:
  cni-conf.json: |
    {"name": "cbr0", "cniVersion": "0.3.1",
     "plugins": [{"type": "flannel", "delegate": {"hairpinMode": true, "isDefaultGateway": true}},
                 {"type": "portmap", "capabilities": {"portMappings": true}}]}
  net-conf.json: |
    {"Network": "${FLANNEL_NETWORK_CIDR}", "SubnetLen": ${FLANNEL_NETWORK_SUBNETLEN},
     "Backend": {"Type": "${FLANNEL_BACKEND}"}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: kube-flannel-ds, namespace: kube-system, labels: {app: flannel}}
spec:
  selector: {matchLabels: {app: flannel}}
  template:
    metadata: {labels: {app: flannel}}
    spec:
      hostNetwork: true
      serviceAccountName: flannel
      tolerations: [{operator: Exists, effect: NoSchedule}]
      initContainers:
      - name: install-cni-plugin
        image: ${flannel_prefix}flannel-cni:${FLANNEL_CNI_TAG}
        command: [cp, /flannel, /opt/cni/bin/flannel]
        volumeMounts: [{name: cni-plugin, mountPath: /opt/cni/bin}]
      - name: install-cni
        image: ${flannel_prefix}flannel:${FLANNEL_TAG}
        command: [cp, /etc/kube-flannel/cni-conf.json, /etc/cni/net.d/10-flannel.conflist]
        volumeMounts: [{name: cni, mountPath: /etc/cni/net.d}, {name: cfg, mountPath: /etc/kube-flannel/}]
      containers:
      - name: kube-flannel
        image: ${flannel_prefix}flannel:${FLANNEL_TAG}
        command: [/opt/bin/flanneld, --ip-masq, --kube-subnet-mgr]
        securityContext: {privileged: true}
        env: [{name: POD_NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}},
              {name: POD_NAMESPACE, valueFrom: {fieldRef: {fieldPath: metadata.namespace}}}]
        volumeMounts: [{name: run, mountPath: /run/flannel}, {name: cfg, mountPath: /etc/kube-flannel/}]
      volumes:
      - {name: run, hostPath: {path: /run/flannel}}
      - {name: cni-plugin, hostPath: {path: /opt/cni/bin}}
      - {name: cni, hostPath: {path: /etc/cni/net.d}}
      - {name: cfg, configMap: {name: kube-flannel-cfg}}
MANIFEST
fi
