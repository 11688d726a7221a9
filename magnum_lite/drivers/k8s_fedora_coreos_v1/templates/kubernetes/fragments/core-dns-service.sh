# ==== core-dns-service.sh ====
# The cluster's DNS: CoreDNS answering at dns_service_ip for dns_cluster_domain
# and forwarding the rest to the node's resolvers.
. /etc/sysconfig/heat-params
apply_manifest coredns <<MANIFEST
apiVersion: v1
kind: ServiceAccount
metadata: {name: coredns, namespace: kube-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: system:coredns}
rules:
- {apiGroups: [""], resources: [endpoints, services, pods, namespaces], verbs: [list, watch]}
- {apiGroups: [discovery.k8s.io], resources: [endpointslices], verbs: [list, watch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: system:coredns}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: system:coredns}
subjects: [{kind: ServiceAccount, name: coredns, namespace: kube-system}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: coredns, namespace: kube-system}
data:
  Corefile: |
    # the cluster's names first, everything else to the node's resolvers
    .:53 {
        kubernetes ${DNS_CLUSTER_DOMAIN} in-addr.arpa ip6.arpa {
            fallthrough in-addr.arpa ip6.arpa
            pods insecure
            ttl 30
        }
        forward . /etc/resolv.conf {
            max_concurrent 1000
        }
        cache 30
        errors
        health {
            lameduck 5s
        }
        ready
        loadbalance
        reload
        prometheus 0.0.0.0:9153
    }
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: coredns, namespace: kube-system, labels: {k8s-app: kube-dns}}
spec:
  replicas: 2
  selector: {matchLabels: {k8s-app: kube-dns}}
  template:
    metadata: {labels: {k8s-app: kube-dns}}
    spec:
      serviceAccountName: coredns
      priorityClassName: system-cluster-critical
      tolerations: [{key: CriticalAddonsOnly, operator: Exists}, {key: node-role.kubernetes.io/master, effect: NoSchedule}]
      containers:
      - name: coredns
        image: ${CONTAINER_INFRA_PREFIX:-docker.io/coredns/}coredns:${COREDNS_TAG}
        args: [-conf, /etc/coredns/Corefile]
        ports: [{containerPort: 53, protocol: UDP}, {containerPort: 53, protocol: TCP}]
        volumeMounts: [{name: config, mountPath: /etc/coredns}]
      volumes: [{name: config, configMap: {name: coredns}}]
---
apiVersion: v1
kind: Service
metadata: {name: kube-dns, namespace: kube-system, labels: {k8s-app: kube-dns}}
spec:
  selector: {k8s-app: kube-dns}
  clusterIP: ${DNS_SERVICE_IP}
  ports: [{name: dns, port: 53, protocol: UDP}, {name: dns-tcp, port: 53, protocol: TCP}]
MANIFEST
