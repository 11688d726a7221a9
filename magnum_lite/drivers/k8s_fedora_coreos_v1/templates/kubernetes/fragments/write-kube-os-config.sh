# ==== write-kube-os-config.sh ====
# The OpenStack cloud provider's cloud.conf: the trustee's credentials scoped to
# the cluster's trust, the region, and the load-balancer settings the cluster's
# Services of type LoadBalancer get.
. /etc/sysconfig/heat-params
install -d -m 0700 /etc/kubernetes
cloud_conf=/etc/kubernetes/cloud-config
umask 077
{
    echo "[Global]"
    echo "auth-url=$AUTH_URL"
    echo "user-id=$TRUSTEE_USER_ID"
    echo "password=$TRUSTEE_PASSWORD"
    echo "trust-id=$TRUST_ID"
    echo "region=$REGION_NAME"
    [ "$VERIFY_CA" = "True" ] && [ -s /etc/pki/ca-trust/source/anchors/openstack-ca.pem ] \
        && echo "ca-file=/etc/pki/ca-trust/source/anchors/openstack-ca.pem"
    echo
    echo "[LoadBalancer]"
    echo "use-octavia=$OCTAVIA_ENABLED"
    echo "lb-provider=$OCTAVIA_PROVIDER"
    echo "lb-method=$OCTAVIA_LB_ALGORITHM"
    echo "create-monitor=$OCTAVIA_LB_HEALTHCHECK"
    echo "subnet-id=$CLUSTER_SUBNET"
    echo "floating-network-id=$EXTERNAL_NETWORK_ID"
    echo
    echo "[BlockStorage]"
    echo "bs-version=v3"
} > "$cloud_conf"
# the occm and CSI pods read the same file from a secret
cp "$cloud_conf" /etc/kubernetes/cloud-config-occm
